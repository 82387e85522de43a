import { entityPage } from '../../components/schema/EntityPage';
import ApiKeysAction from './ApiKeysAction';

/** API users (page key `operation/apiUser`): the schema page, with each user's keys in a drawer (the action guards itself with apiUser-key). */
export default entityPage('apiUser', {
  rowActions: (row) => [<ApiKeysAction key="keys" row={row} />],
  actionsWidth: 200,
});
