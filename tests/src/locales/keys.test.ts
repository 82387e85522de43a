import fs from 'node:fs';
import path from 'node:path';
import { catalogues } from '../../../schemas/kit/catalogue';
import { LANGUAGES } from '../../../schemas/kit/i18n';
import { PASSWORD_RULES } from '../../../schemas/kit/password';
import { REFUSAL_MESSAGES, REFUSAL_REASONS } from '../../../schemas/kit/terminalRefusal';
import { TERMINAL_PARAMS } from '../../../schemas/kit/terminalParams';
import { UI_SIZES } from '../../../src/shell/settings';
import { STATUSES } from '../../../src/pages/fleet/monitor/monitorModel';
import { TRACK_RANGES } from '../../../src/pages/vehicleDetail/playback';
import { READINGS, SUBTYPES } from '../../../src/pages/vehicleDetail/messageText';
import { CHOICE_KEYS } from '../../../src/pages/fleet/strategy/RederiveDialog';
import { ATTRIBUTE_FIELDS, COMMAND_CHOICES, COMMAND_RESULTS, COMMAND_STATUSES, PHOTO_RESULTS } from '../../../src/services/commands';
import { FORWARD_PROTOCOLS, LINK_STATES, SENT_KINDS, SUB_LINK_STATES } from '../../../src/services/forwarding';
import { MEDIA_EVENTS, MEDIA_TYPES } from '../../../schemas/kit/media';
import { UPGRADE_RESULTS, UPGRADE_TYPES } from '../../../src/services/upgrades';
import { LEVEL_COLOURS, TYPES_BY_CATEGORY, VALUE_UNITS } from '../../../src/pages/alarm/alarmModel';
import { COUNT_KEYS, DISTRIBUTION_KEYS, LEDGER_KEYS } from '../../../src/pages/dashboard/dashboardModel';
import { POLICY_PARAMS } from '../../../schemas/kit/policyParams';
import { entities, schemaEntities } from '../../../schemas/generated/registry';
import {
  BREAK_RULE_COLUMNS,
  DRIVER_DAY_COLUMNS,
  DRIVER_STATS_COLUMNS,
  HEALTH_VEHICLE_COLUMNS,
  SAFETY_RANK_COLUMNS,
  SCHEDULE_COLUMNS,
} from '../../../schemas/kit/reportColumns';
import { HEALTH_BANDS } from '../../../src/services/behaviour';
import { DUE_STATES } from '../../../src/services/maintenance';
import { COST_LABELS } from '../../../src/pages/statistics/costModel';
import { STATUS_COLOURS as SEND_STATUSES, TRIGGERS as SEND_TRIGGERS } from '../../../src/pages/statistics/reportSchedule';

const SHIFTS = (entities.schedule.properties.shift as { enum?: string[] }).enum ?? [];
const REPORT_COLUMNS = [
  ...BREAK_RULE_COLUMNS,
  ...HEALTH_VEHICLE_COLUMNS,
  ...SAFETY_RANK_COLUMNS,
  ...SCHEDULE_COLUMNS,
  ...DRIVER_STATS_COLUMNS,
  ...DRIVER_DAY_COLUMNS,
] as ReadonlyArray<{
  labelKey: string;
}>;

const srcDir = path.resolve(__dirname, '../../../src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith('.') ? [] : sources(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

// Keys built at run time, expanded over every value they can take.
/** The catalogue keys of an entity property's enum values. */
const enumKeys = (entity: string, prop: string): string[] => {
  const p = (schemaEntities as Record<string, { properties: Record<string, { enum?: unknown[]; items?: { enum?: unknown[] } }> }>)[entity]
    .properties[prop];
  return (p?.enum ?? p?.items?.enum ?? []).filter((v) => v !== null).map((v) => `entity.${entity}.enums.${prop}.${String(v)}`);
};

const dynamic: Record<string, readonly string[]> = {
  'console.languages.${l}': LANGUAGES.map((l) => `console.languages.${l}`),
  'console.size.${s}': UI_SIZES.map((s) => `console.size.${s}`),
  // Only entities whose page title is not one record's name write an `item` (labels.ts falls back to the title).
  'entity.${entity}.item': ['vehicle', 'driver', 'terminal'].map((e) => `entity.${e}.item`),
  'validation.password.rules.${rule}': PASSWORD_RULES.map((r) => `validation.password.rules.${r}`),
  'validation.password.strength.${level}': ['weak', 'medium', 'strong'].map((l) => `validation.password.strength.${l}`),
  'terminalRegistration.messages.${v}': REFUSAL_MESSAGES.map((v) => `terminalRegistration.messages.${v}`),
  'terminalRegistration.reasons.${v}': REFUSAL_REASONS.map((v) => `terminalRegistration.reasons.${v}`),
  'forwarding.console.protocols.${r.protocol}': FORWARD_PROTOCOLS.map((p) => `forwarding.console.protocols.${p}`),
  'forwarding.console.states.${r.state}': LINK_STATES.map((k) => `forwarding.console.states.${k}`),
  'forwarding.console.subLinks.${r.subLink}': SUB_LINK_STATES.map((k) => `forwarding.console.subLinks.${k}`),
  'forwarding.console.kinds.${k}': SENT_KINDS.map((k) => `forwarding.console.kinds.${k}`),
  'console.vehicleDetail.media.types.${type}': MEDIA_TYPES.map((k) => `console.vehicleDetail.media.types.${k}`),
  'console.vehicleDetail.media.events.${e}': MEDIA_EVENTS.map((k) => `console.vehicleDetail.media.events.${k}`),
  'console.vehicleDetail.media.events.${m.eventName}': MEDIA_EVENTS.map((k) => `console.vehicleDetail.media.events.${k}`),
  ...Object.fromEntries(
    ['alarm.types.${a.type}', 'alarm.types.${ty}', 'alarm.types.${handling.type}'].map((k) => [
      k,
      [...new Set(Object.values(TYPES_BY_CATEGORY).flat())].map((ty) => `alarm.types.${ty}`),
    ]),
  ),
  'alarm.categories.${a.category}': Object.keys(TYPES_BY_CATEGORY).map((c) => `alarm.categories.${c}`),
  'alarm.levels.${a.level}': Object.keys(LEVEL_COLOURS).map((l) => `alarm.levels.${l}`),
  'console.dashboard.alarms.${a.status}': ['open', 'closed'].map((k) => `console.dashboard.alarms.${k}`),
  'console.dashboard.counts.${k}': COUNT_KEYS.map((k) => `console.dashboard.counts.${k}`),
  'console.dashboard.countsHelp.${k}': COUNT_KEYS.map((k) => `console.dashboard.countsHelp.${k}`),
  'console.dashboard.distribution.${k}': DISTRIBUTION_KEYS.map((k) => `console.dashboard.distribution.${k}`),
  'console.dashboard.ledger.${k}': LEDGER_KEYS.map((k) => `console.dashboard.ledger.${k}`),
  'console.dashboard.ledger.${period}': ['today', 'month'].map((k) => `console.dashboard.ledger.${k}`),
  'console.dashboard.top7.${d.top7By}Series': ['mileage', 'fuel'].map((k) => `console.dashboard.top7.${k}Series`),
  'console.dashboard.units.${LEDGER_UNITS[k]}': ['km', 'l', 'yuan'].map((k) => `console.dashboard.units.${k}`),
  'console.reportSchedule.statuses.${v}': Object.keys(SEND_STATUSES).map((v) => `console.reportSchedule.statuses.${v}`),
  'console.reportSchedule.triggers.${v}': SEND_TRIGGERS.map((v) => `console.reportSchedule.triggers.${v}`),
  ...Object.fromEntries(
    ['console.maintenance.states.${s}', 'console.maintenance.states.${v}'].map((k) => [
      k,
      DUE_STATES.map((s) => `console.maintenance.states.${s}`),
    ]),
  ),
  'console.statistics.cost.${k}': COST_LABELS.map((k) => `console.statistics.cost.${k}`),
  'console.statistics.fuel.${e.kind}': ['refuel', 'drain'].map((k) => `console.statistics.fuel.${k}`),
  'entity.vehicle.enums.status.${String(b.key)}': ((entities.vehicle.properties.status as { enum?: string[] }).enum ?? []).map(
    (v) => `entity.vehicle.enums.status.${v}`,
  ),
  '${LABELS}.${name}': [...new Set(Object.values(POLICY_PARAMS).flatMap((p) => Object.keys(p.properties)))].map((n) => `alarm.params.${n}`),
  '${LABELS}.params': ['alarm.params.params'],
  'console.monitor.status.${status}': STATUSES.map((s) => `console.monitor.status.${s}`),
  'console.command.param.${def.name}': TERMINAL_PARAMS.map((d) => `console.command.param.${d.name}`),
  'entity.organisation.enums.status.${String(value)}': enumKeys('organisation', 'status'),
  'entity.member.enums.status.${String(value)}': enumKeys('member', 'status'),
  'labels.language.${l}': LANGUAGES.map((l) => `labels.language.${l}`),
  // The label studio shows any entity's title, field labels and enum labels.
  'entity.${name}.title': Object.keys(entities).map((e) => `entity.${e}.title`),
  'entity.${entity}.title': Object.keys(entities).map((e) => `entity.${e}.title`),
  '${prefix}.${name}': Object.entries(entities).flatMap(([e, schema]) =>
    Object.keys(schema.properties).map((p) => `entity.${e}.fields.${p}`),
  ),
  'entity.${entity}.enums.${name}.${String(v)}': Object.entries(entities).flatMap(([e, schema]) =>
    Object.keys(schema.properties).flatMap((p) => enumKeys(e, p)),
  ),
  'console.fence.hint.${type}': ((entities.fence.properties.fenceType as { enum?: string[] }).enum ?? []).map(
    (ty) => `console.fence.hint.${ty}`,
  ),
  'console.monitor.status.${s}': STATUSES.map((s) => `console.monitor.status.${s}`),
  'console.vehicleDetail.range.${k}': TRACK_RANGES.map((k) => `console.vehicleDetail.range.${k}`),
  "console.vehicleDetail.messages.subtypes.${SUBTYPES[subtype] ?? 'unknown'}": [...Object.values(SUBTYPES), 'unknown'].map(
    (k) => `console.vehicleDetail.messages.subtypes.${k}`,
  ),
  'console.jt808.fields.${key}': READINGS.map((r) => `console.jt808.fields.${r.key}`),
  'alarm.types.${String(p.alarmType)}': [...new Set(Object.values(TYPES_BY_CATEGORY).flat())].map((ty) => `alarm.types.${ty}`),
  'alarm.types.${f.type}': [...new Set(Object.values(TYPES_BY_CATEGORY).flat())].map((ty) => `alarm.types.${ty}`),
  'alarm.types.${done.type}': [...new Set(Object.values(TYPES_BY_CATEGORY).flat())].map((ty) => `alarm.types.${ty}`),
  'console.alarm.units.${u.unit}': [...new Set(Object.values(VALUE_UNITS).map((u) => u.unit))].map((k) => `console.alarm.units.${k}`),
  'console.alarm.rederive.${CHOICE_KEYS[m]}': Object.values(CHOICE_KEYS).map((k) => `console.alarm.rederive.${k}`),
  'console.alarm.rederive.${CHOICE_KEYS[m]}Help': Object.values(CHOICE_KEYS).map((k) => `console.alarm.rederive.${k}Help`),
  'console.vehicleDetail.segment.${s.kind}': ['run', 'stop'].map((k) => `console.vehicleDetail.segment.${k}`),
  'console.command.statuses.${sent.status}': COMMAND_STATUSES.map((k) => `console.command.statuses.${k}`),
  'console.command.${c}': COMMAND_CHOICES.map((k) => `console.command.${k}`),
  'console.command.attribute.${f}': ATTRIBUTE_FIELDS.map((k) => `console.command.attribute.${k}`),
  'console.command.results.${result}': COMMAND_RESULTS.map((k) => `console.command.results.${k}`),
  'console.command.photoResults.${photoResult}': PHOTO_RESULTS.map((k) => `console.command.photoResults.${k}`),
  'console.command.upgradeResults.${upgraded}': UPGRADE_RESULTS.map((k) => `console.command.upgradeResults.${k}`),
  'console.command.upgradeTypes.${v}': UPGRADE_TYPES.map((k) => `console.command.upgradeTypes.${k}`),
  'console.command.upgradeResults.${done}': UPGRADE_RESULTS.map((k) => `console.command.upgradeResults.${k}`),
  'console.command.statuses.${r.status}': COMMAND_STATUSES.map((k) => `console.command.statuses.${k}`),
  'reports.bands.${b}': HEALTH_BANDS.map((b) => `reports.bands.${b}`),
  'console.team.state.${state}': ['driven', 'pending', 'idle'].map((k) => `console.team.state.${k}`),
  'entity.schedule.enums.shift.${r.shift}': SHIFTS.map((v) => `entity.schedule.enums.shift.${v}`),
  'alarm.levels.${f.level}': Object.keys(LEVEL_COLOURS).map((l) => `alarm.levels.${l}`),
  'behaviour.fields.${k}': ['harshAcceleration', 'harshBraking', 'sharpTurn', 'fatigue'].map((k) => `behaviour.fields.${k}`),
  'console.statistics.safetyExplain.state.${e.review.state}': ['dismissed', 'coached'].map(
    (k) => `console.statistics.safetyExplain.state.${k}`,
  ),
  'console.password.${k}': ['oldPassword', 'newPassword', 'confirmPassword', 'oldLength', 'rules', 'cancel', 'submit'].map(
    (k) => `console.password.${k}`,
  ),
};

/** Every message key the console's code names: t('…'), id: '…', and the template keys above. */
function usedKeys(): Set<string> {
  const keys = new Set<string>();
  for (const file of sources(srcDir)) {
    const code = fs.readFileSync(file, 'utf8');
    for (const m of code.matchAll(/\b(?:t|label)\(\s*['"]([\w.-]+)['"]/g)) if (m[1].includes('.')) keys.add(m[1]);
    for (const m of code.matchAll(/\bt\(\s*(\w+)\s*\?\s*['"]([\w.-]+)['"]\s*:\s*['"]([\w.-]+)['"]/g)) keys.add(m[2]).add(m[3]);
    for (const m of code.matchAll(/\bt\(`([^`]+)`/g)) {
      const expanded = dynamic[m[1]];
      if (!expanded) throw new Error(`${path.relative(srcDir, file)}: add the template key ${m[1]} to this test`);
      expanded.forEach((k) => keys.add(k));
    }
  }
  return keys;
}

describe('console message keys', () => {
  const keys = usedKeys();

  it('finds the keys the shell uses', () => {
    expect(keys.size).toBeGreaterThan(50);
    expect(keys).toContain('console.tabs.closeOthers');
    expect(keys).toContain('http.logoutTitle');
  });

  it.each(LANGUAGES)('%s has every key the console uses', (lang) => {
    // The report tables' columns (shared with their xlsx) and the codes they translate.
    const columnKeys = [
      ...REPORT_COLUMNS.map((c) => c.labelKey),
      ...HEALTH_BANDS.map((b) => `reports.bands.${b}`),
      ...SHIFTS.map((v) => `entity.schedule.enums.shift.${v}`),
    ];
    const missing = [...keys, ...columnKeys].filter((k) => !catalogues[lang][k]);
    expect(missing).toEqual([]);
  });
});
