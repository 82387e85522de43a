/**
 * The alarm model: its types, where each comes from (category) and its default level. Pure data,
 * read by the server's detectors and store (server/intelligence/alarms/types.ts) and by the
 * console's alarm filters alike.
 */

/** SPEC's eleven types first, then the ones the alarm word, fences, AI and OBD add. */
export const SPEC_ALARM_TYPES = [
  'FireOn',
  'Low',
  'Fault',
  'Crash',
  'Trail',
  'PullOut',
  'Insert',
  'Idle',
  'OfflineLongTime',
  'StopLongTime',
  'OverSpeed',
] as const;

export const EXTRA_ALARM_TYPES = [
  'Fatigue',
  'FenceIn',
  'FenceOut',
  'FuelDrain',
  'RepeatArrival',
  'Skewing',
  'Sos',
  'DangerWarning',
  'GnssFault',
  'GnssAntenna',
  'DeviceFault',
  'OverSpeedWarning',
  'IllegalDriving',
  'TyrePressure',
  'BlindZone',
  'AreaInOut',
  'RouteInOut',
  'RouteTime',
  'VssFault',
  'Stolen',
  'IllegalDoorOpen',
  'ObdAlarm',
  // Maintenance schedules (server/maintenance/), raised by their own clock.
  'MaintenanceDue',
  'MaintenanceOverdue',
  // A fuel card purchase with no refuel seen, or more litres than the tank (server/maintenance/fuelCardMatch.ts).
  'FuelCardSuspect',
  // Active safety (苏标 0x0200 items 0x64–0x67: detectors/activeSafety.ts).
  'ForwardCollision',
  'LaneDeparture',
  'HeadwayClose',
  'PedestrianCollision',
  'FrequentLaneChange',
  'RoadSignExceeded',
  'Obstacle',
  'DriverFatigue',
  'PhoneCall',
  'Smoking',
  'Distraction',
  'DriverAbnormal',
  'CameraBlocked',
  'SeatbeltOff',
  'HandsOff',
  'TyreAlarm',
  'BlindSpot',
] as const;

export const ALARM_TYPES = [...SPEC_ALARM_TYPES, ...EXTRA_ALARM_TYPES] as const;
export type AlarmType = (typeof ALARM_TYPES)[number];

export const ALARM_CATEGORIES = ['terminal', 'fence', 'ai', 'obd', 'safety'] as const;
export type AlarmCategory = (typeof ALARM_CATEGORIES)[number];

export const ALARM_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export type AlarmLevel = (typeof ALARM_LEVELS)[number];

/** Where an alarm of each type belongs in the alarm centre, and how serious it is by default. */
export const ALARM_META: Record<AlarmType, { category: AlarmCategory; level: AlarmLevel }> = {
  FireOn: { category: 'terminal', level: 'low' },
  Low: { category: 'terminal', level: 'medium' },
  Fault: { category: 'obd', level: 'medium' },
  Crash: { category: 'terminal', level: 'critical' },
  Trail: { category: 'terminal', level: 'high' },
  PullOut: { category: 'terminal', level: 'high' },
  Insert: { category: 'terminal', level: 'low' },
  Idle: { category: 'terminal', level: 'low' },
  OfflineLongTime: { category: 'terminal', level: 'medium' },
  StopLongTime: { category: 'terminal', level: 'low' },
  OverSpeed: { category: 'terminal', level: 'high' },
  Fatigue: { category: 'ai', level: 'high' },
  FenceIn: { category: 'fence', level: 'medium' },
  FenceOut: { category: 'fence', level: 'medium' },
  FuelDrain: { category: 'ai', level: 'high' },
  RepeatArrival: { category: 'ai', level: 'medium' },
  Skewing: { category: 'ai', level: 'medium' },
  Sos: { category: 'terminal', level: 'critical' },
  DangerWarning: { category: 'terminal', level: 'high' },
  GnssFault: { category: 'terminal', level: 'medium' },
  GnssAntenna: { category: 'terminal', level: 'medium' },
  DeviceFault: { category: 'terminal', level: 'low' },
  OverSpeedWarning: { category: 'terminal', level: 'medium' },
  IllegalDriving: { category: 'terminal', level: 'high' },
  TyrePressure: { category: 'terminal', level: 'medium' },
  BlindZone: { category: 'terminal', level: 'medium' },
  AreaInOut: { category: 'fence', level: 'medium' },
  RouteInOut: { category: 'fence', level: 'medium' },
  RouteTime: { category: 'terminal', level: 'low' },
  VssFault: { category: 'terminal', level: 'medium' },
  Stolen: { category: 'terminal', level: 'critical' },
  IllegalDoorOpen: { category: 'terminal', level: 'high' },
  ObdAlarm: { category: 'obd', level: 'medium' },
  // Vehicle health, beside the trouble codes they are often serviced with.
  MaintenanceDue: { category: 'obd', level: 'low' },
  MaintenanceOverdue: { category: 'obd', level: 'medium' },
  FuelCardSuspect: { category: 'ai', level: 'high' },
  // The terminal's own level overrides these (1 → medium, 2 → high).
  ForwardCollision: { category: 'safety', level: 'high' },
  LaneDeparture: { category: 'safety', level: 'medium' },
  HeadwayClose: { category: 'safety', level: 'medium' },
  PedestrianCollision: { category: 'safety', level: 'high' },
  FrequentLaneChange: { category: 'safety', level: 'medium' },
  RoadSignExceeded: { category: 'safety', level: 'medium' },
  Obstacle: { category: 'safety', level: 'medium' },
  DriverFatigue: { category: 'safety', level: 'high' },
  PhoneCall: { category: 'safety', level: 'medium' },
  Smoking: { category: 'safety', level: 'medium' },
  Distraction: { category: 'safety', level: 'medium' },
  DriverAbnormal: { category: 'safety', level: 'high' },
  CameraBlocked: { category: 'safety', level: 'medium' },
  SeatbeltOff: { category: 'safety', level: 'medium' },
  HandsOff: { category: 'safety', level: 'high' },
  TyreAlarm: { category: 'safety', level: 'medium' },
  BlindSpot: { category: 'safety', level: 'medium' },
};
