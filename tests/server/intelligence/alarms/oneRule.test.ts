import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ALARM_TYPES, type AlarmType } from '../../../../server/intelligence/alarms/types';

/**
 * One rule, one place: every alarm type is raised by the rule modules listed here and by no other
 * code. A type may have several rules (the terminal's own bit beside a policy's condition: they
 * merge into one alarm), never a second implementation of one rule beside the pass. Only the pass
 * (store.ts, replacing a window's alarms) and the clocks (the types no report raises in time, and
 * maintenance falling due) write
 * alarm rows, and only the engine announces them.
 */

const SERVER = path.resolve(__dirname, '../../../../server');
const ALARMS = 'intelligence/alarms';
const WORD = `${ALARMS}/detectors/alarmWord.ts`;
const POLICY = `${ALARMS}/detectors/policyRules.ts`;
const FENCES = `${ALARMS}/detectors/fences.ts`;
const OBD = `${ALARMS}/detectors/obd.ts`;
const AI = `${ALARMS}/detectors/aiRules.ts`;
const SAFETY = `${ALARMS}/detectors/activeSafety.ts`;
const DRAIN = `${ALARMS}/detectors/fuelDrain.ts`;
const OFFLINE_CLOCK = `${ALARMS}/offlineClock.ts`;
const STOP_CLOCK = `${ALARMS}/stopClock.ts`;
const MAINTENANCE_CLOCK = 'maintenance/maintenanceAlarms.ts';
const FUEL_CARD_CLOCK = 'maintenance/fuelCardMatch.ts';

/** Each type's rules (files relative to server/). */
const RULES: Record<AlarmType, readonly string[]> = {
  FireOn: [POLICY, WORD],
  Low: [POLICY, WORD],
  Fault: [OBD],
  Crash: [WORD],
  Trail: [POLICY, WORD],
  PullOut: [WORD],
  Insert: [WORD],
  Idle: [POLICY],
  OfflineLongTime: [OFFLINE_CLOCK],
  // A stop whose terminal went quiet is the clock's (DESIGN: clock-driven rules run on a timer).
  StopLongTime: [POLICY, WORD, STOP_CLOCK],
  // The policy's limit, a fence's speed limit and the terminal's own bit.
  OverSpeed: [POLICY, FENCES, WORD],
  Fatigue: [POLICY, WORD],
  FenceIn: [FENCES],
  FenceOut: [FENCES],
  FuelDrain: [DRAIN, WORD],
  RepeatArrival: [AI],
  Skewing: [AI, WORD],
  Sos: [WORD],
  DangerWarning: [WORD],
  GnssFault: [WORD],
  GnssAntenna: [WORD],
  DeviceFault: [WORD],
  OverSpeedWarning: [WORD],
  IllegalDriving: [WORD],
  TyrePressure: [WORD],
  BlindZone: [WORD],
  AreaInOut: [WORD],
  RouteInOut: [WORD],
  RouteTime: [WORD],
  VssFault: [WORD],
  Stolen: [WORD],
  IllegalDoorOpen: [WORD],
  ObdAlarm: [OBD],
  // Schedules falling due: the calendar and the odometer, on the maintenance clock.
  MaintenanceDue: [MAINTENANCE_CLOCK],
  MaintenanceOverdue: [MAINTENANCE_CLOCK],
  // Fuel card purchases against the refuels seen, on the same clock.
  FuelCardSuspect: [FUEL_CARD_CLOCK],
  // The active safety items of the reports (苏标 0x64–0x67).
  ForwardCollision: [SAFETY],
  LaneDeparture: [SAFETY],
  HeadwayClose: [SAFETY],
  PedestrianCollision: [SAFETY],
  FrequentLaneChange: [SAFETY],
  RoadSignExceeded: [SAFETY],
  Obstacle: [SAFETY],
  DriverFatigue: [SAFETY],
  PhoneCall: [SAFETY],
  Smoking: [SAFETY],
  Distraction: [SAFETY],
  DriverAbnormal: [SAFETY],
  CameraBlocked: [SAFETY],
  SeatbeltOff: [SAFETY],
  HandsOff: [SAFETY],
  TyreAlarm: [SAFETY],
  BlindSpot: [SAFETY],
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const files = sourceFiles(SERVER).map((f) => ({ rel: path.relative(SERVER, f), text: fs.readFileSync(f, 'utf8') }));
const types = new Set<string>(ALARM_TYPES);

/**
 * Where a string literal names the type of an alarm being raised: an interval's `type:` property,
 * the type handed to a function that builds one (its first argument, `fromRun('Idle', …)`), the
 * fallback of a mapped type (`?? 'ObdAlarm'`), either branch of a choice between types, or an element
 * of a table of types (the alarm word's bits).
 */
function raisedTypes(rel: string, text: string): Array<{ type: string; file: string }> {
  const out: Array<{ type: string; file: string }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) && types.has(node.text)) {
      const parent = node.parent;
      const raised =
        (ts.isPropertyAssignment(parent) && parent.name.getText() === 'type' && parent.initializer === node) ||
        (ts.isCallExpression(parent) && parent.arguments[0] === node && /^(fromRun|event)$/.test(parent.expression.getText())) ||
        (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken && parent.right === node) ||
        (ts.isConditionalExpression(parent) && (parent.whenTrue === node || parent.whenFalse === node)) ||
        (ts.isArrayLiteralExpression(parent) && parent.elements.length >= 8);
      if (raised) out.push({ type: node.text, file: rel });
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true));
  return out;
}

describe('one rule, one place', () => {
  const raised = files.filter((f) => f.rel !== `${ALARMS}/types.ts`).flatMap((f) => raisedTypes(f.rel, f.text));

  it('lists a rule for every alarm type', () => {
    expect(Object.keys(RULES).sort()).toEqual([...ALARM_TYPES].sort());
  });

  it.each([...ALARM_TYPES])('raises %s only in its rules', (type) => {
    const where = [...new Set(raised.filter((r) => r.type === type).map((r) => r.file))].sort();
    expect(where).toEqual([...RULES[type]].sort());
  });

  it('writes alarm rows only from the pass and the clock, and announces them only from the engine', () => {
    const writers = files.filter((f) => /INSERT INTO alarm\b/.test(f.text)).map((f) => f.rel);
    expect(writers.sort()).toEqual(
      [`${ALARMS}/offlineClock.ts`, `${ALARMS}/stopClock.ts`, `${ALARMS}/store.ts`, 'maintenance/clockAlarm.ts'].sort(),
    );
    const publishers = files.filter((f) => /publish\(\s*'alarm\.raised'/.test(f.text)).map((f) => f.rel);
    expect(publishers).toEqual([`${ALARMS}/engine.ts`]);
  });

  it('finds this test able to fail: a second path raising a type is seen', () => {
    const extra = raisedTypes(
      'intelligence/alarms/idleAhead.ts',
      "export const early = (t: number) => ({ type: 'Idle', subject: '', begin: t, end: null });",
    );
    expect(extra).toEqual([{ type: 'Idle', file: 'intelligence/alarms/idleAhead.ts' }]);
  });
});
