import { entityPage } from '../../components/schema/EntityPage';
import Permission from '../../session/Permission';
import ExpiryCell from './service/ExpiryCell';
import { SERVICE_CODE } from '../../services/fleet';
import ServiceAction from './service/ServiceAction';
import RegistrationAction from './terminal/RegistrationAction';
import CommandButton from '../../components/terminal/CommandButton';

/**
 * Terminals (page key `fleet/terminal`): the schema page, with a lapsed service end in red and the
 * service renewal of one terminal and its registration (state, bound hardware, refused attempts,
 * reset), and commands to it (locate, text, parameters, control) with their status; import, renewal by spreadsheet and export come with the page's spreadsheet buttons.
 */
export default entityPage('terminal', {
  cells: { serviceEnd: (value) => <ExpiryCell value={value} expiredKey="console.terminal.serviceExpired" /> },
  rowActions: (row, ctx) => [
    <Permission key="service" code={SERVICE_CODE.terminal}>
      <ServiceAction entity="terminal" row={row} name={String(row.terminalNo ?? '')} ctx={ctx} />
    </Permission>,
    <RegistrationAction key="registration" row={row} ctx={ctx} />,
    <CommandButton key="command" terminalId={typeof row.id === 'number' ? row.id : null} testId="row-command" />,
  ],
});
