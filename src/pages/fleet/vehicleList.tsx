import type { ReactNode } from 'react';
import ShareLocationButton from '../../components/location/ShareLocationButton';
import { entityPage } from '../../components/schema/EntityPage';
import type { EntityPageContext, Row } from '../../components/schema/pageContract';
import LicenceCell from './vehicle/LicenceCell';
import { vehicleRowActions } from './vehicle/vehicleActions';

/** Bind or unbind, renewal, then sharing the live location (the button guards itself with vehicle-edit, the code of the share routes). */
const rowActions = (row: Row, ctx: EntityPageContext): ReactNode[] => [
  ...vehicleRowActions(row, ctx),
  <ShareLocationButton key="share" vehicleId={row.id} link />,
];

/**
 * Vehicles (page key `fleet/vehicleList`): the schema page, with the licence cell of SPEC §2
 * (expired → red → the service-expired dialog; otherwise a link to the detail), bind or unbind a
 * terminal or replace it, service renewal, the driver and the app-account owner, and a link to the vehicle's live location for people without an
 * account. Import and export come with the page's spreadsheet buttons.
 */
export default entityPage('vehicle', {
  cells: { licence: (_value, row, ctx) => <LicenceCell row={row} ctx={ctx} /> },
  rowActions,
  actionsWidth: 460,
});
