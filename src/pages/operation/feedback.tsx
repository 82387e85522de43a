import { entityPage } from '../../components/schema/EntityPage';
import { ASSIGN_CODE } from '../../services/fleet';
import Permission from '../../session/Permission';
import FeedbackStateAction from './FeedbackStateAction';

/** Feedback (page key `operation/feedback`): the schema page, with each row's state changed in place. */
export default entityPage('feedback', {
  rowActions: (row, ctx) => [
    <Permission key="state" code={ASSIGN_CODE.feedbackState}>
      <FeedbackStateAction row={row} ctx={ctx} />
    </Permission>,
  ],
  actionsWidth: 240,
});
