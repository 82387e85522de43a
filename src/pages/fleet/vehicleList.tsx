import { entityPage } from '../../components/schema/EntityPage';
import LicenceCell from './vehicle/LicenceCell';
import { vehicleRowActions } from './vehicle/vehicleActions';

/**
 * Vehicles (page key `fleet/vehicleList`): the schema page, with the licence cell of SPEC §2
 * (expired → red → the service-expired dialog; otherwise a link to the detail), bind or unbind a
 * terminal, and service renewal. Import and export come with the page's spreadsheet buttons.
 */
export default entityPage('vehicle', {
  cells: { licence: (_value, row, ctx) => <LicenceCell row={row} ctx={ctx} /> },
  rowActions: vehicleRowActions,
});
