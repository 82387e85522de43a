import { useEffect, useState } from 'react';
import { vehicleMaintenance, type ScheduleUsage } from '../../services/maintenance';
import UsageTable from '../maintenance/UsageTable';

/** The vehicle's maintenance schedules with their usage since the last service and their state. */
export function MaintenanceTab({ vehicleId }: { vehicleId: number }) {
  const [rows, setRows] = useState<ScheduleUsage[] | null>(null);
  useEffect(() => {
    let live = true;
    setRows(null);
    vehicleMaintenance(vehicleId).then(
      (s) => live && setRows(s.data),
      () => live && setRows([]),
    );
    return () => {
      live = false;
    };
  }, [vehicleId]);
  return <UsageTable rows={rows} noVehicle testId="detail-maintenance" />;
}
