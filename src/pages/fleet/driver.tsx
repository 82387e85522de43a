import { entityPage } from '../../components/schema/EntityPage';
import LicenceExpiryButton from './driver/LicenceExpiryButton';
import ExpiryCell from './service/ExpiryCell';

/**
 * Drivers (page key `fleet/driver`): the schema page, with a lapsed driving licence in red — the
 * licence is what a dispatcher checks before assigning a driver — and the licence-expiry list
 * (expired or expiring soon, with the vehicles each driver drives). Import and export come with
 * the page's spreadsheet buttons.
 */
export default entityPage('driver', {
  cells: { licenseExpire: (value) => <ExpiryCell value={value} expiredKey="console.vehicle.driverLicenseExpired" /> },
  toolbar: () => [<LicenceExpiryButton key="licences" />],
});
