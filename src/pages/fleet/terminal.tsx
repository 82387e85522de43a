import { entityPage } from '../../components/schema/EntityPage';
import Permission from '../../shell/Permission';
import ExpiryCell from './service/ExpiryCell';
import { SERVICE_CODE } from './service/fleetCalls';
import ServiceAction from './service/ServiceAction';

/**
 * Terminals (page key `fleet/terminal`): the schema page, with a lapsed service end in red and the
 * service renewal of one terminal; import, renewal by spreadsheet and export come with the page's
 * spreadsheet buttons.
 */
export default entityPage('terminal', {
  cells: { serviceEnd: (value) => <ExpiryCell value={value} expiredKey="console.terminal.serviceExpired" /> },
  rowActions: (row, ctx) => [
    <Permission key="service" code={SERVICE_CODE.terminal}>
      <ServiceAction entity="terminal" row={row} name={String(row.terminalNo ?? '')} ctx={ctx} />
    </Permission>,
  ],
});
