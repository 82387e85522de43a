import type { Translate } from '../../../schemas/kit/i18n';
import type { DriverRef } from '../../services/drivers';

/** Who drove, by IC card session, as a cell reads: the driver, a card no driver holds, or unassigned. */
export function driverText(d: DriverRef | undefined, t: Translate): string {
  if (!d) return t('console.statistics.driver.unassigned');
  return d.driverName ?? t('console.statistics.driver.unknownCard', { card: d.cardNo });
}
