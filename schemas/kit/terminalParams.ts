/**
 * The terminal parameters (JT/T 808 0x8103, ids per the reference) the console's parameters form
 * offers: id, wire type and bounds. The server's route accepts any id with its type; this list
 * is what an operator fills in by name, checked the same way before sending.
 */

export type ParamWire = 'u8' | 'u16' | 'u32' | 'string';

export interface ParamDef {
  /** Name of the parameter: its label is `console.command.param.<name>`. */
  name: string;
  id: number;
  type: ParamWire;
  min?: number;
  max?: number;
  /** Longest text (GBK bytes are at most twice the characters; the server checks bytes). */
  maxLength?: number;
}

const WIDTH_MAX: Record<Exclude<ParamWire, 'string'>, number> = { u8: 0xff, u16: 0xffff, u32: 0xffffffff };

export const TERMINAL_PARAMS: readonly ParamDef[] = [
  { name: 'heartbeatInterval', id: 0x0001, type: 'u32', min: 1, max: 3600 },
  { name: 'tcpAckTimeout', id: 0x0002, type: 'u32', min: 1, max: 600 },
  { name: 'tcpRetries', id: 0x0003, type: 'u32', min: 0, max: 20 },
  { name: 'apn', id: 0x0010, type: 'string', maxLength: 64 },
  { name: 'mainServer', id: 0x0013, type: 'string', maxLength: 100 },
  { name: 'backupServer', id: 0x0017, type: 'string', maxLength: 100 },
  { name: 'sleepReportInterval', id: 0x0027, type: 'u32', min: 1, max: 86400 },
  { name: 'defaultReportInterval', id: 0x0029, type: 'u32', min: 1, max: 86400 },
  { name: 'maxSpeed', id: 0x0055, type: 'u32', min: 1, max: 300 },
  { name: 'overspeedDuration', id: 0x0056, type: 'u32', min: 0, max: 3600 },
  { name: 'odometer', id: 0x0080, type: 'u32', min: 0, max: WIDTH_MAX.u32 },
  { name: 'plate', id: 0x0083, type: 'string', maxLength: 12 },
];

export interface ParamValue {
  id: number;
  type: ParamWire;
  value: number | string;
}

/** Why a value cannot be sent (a message key and its parameters), or null when it can. */
export function paramProblem(def: ParamDef, value: number | string): { key: string; params: Record<string, number> } | null {
  if (def.type === 'string') {
    if (typeof value !== 'string' || !value.length) return { key: 'validation.required', params: {} };
    return def.maxLength !== undefined && value.length > def.maxLength
      ? { key: 'validation.maxLength', params: { limit: def.maxLength } }
      : null;
  }
  const min = def.min ?? 0;
  const max = Math.min(def.max ?? WIDTH_MAX[def.type], WIDTH_MAX[def.type]);
  if (typeof value !== 'number' || !Number.isInteger(value)) return { key: 'validation.integer', params: {} };
  if (value < min) return { key: 'validation.minimum', params: { limit: min } };
  if (value > max) return { key: 'validation.maximum', params: { limit: max } };
  return null;
}

/** The filled-in fields of the form as the 0x8103 route's list, in the table's order. */
export function paramList(values: Readonly<Record<string, number | string | null | undefined>>): ParamValue[] {
  return TERMINAL_PARAMS.filter((d) => values[d.name] !== undefined && values[d.name] !== null && values[d.name] !== '').map((d) => ({
    id: d.id,
    type: d.type,
    value: values[d.name] as number | string,
  }));
}

/**
 * What a terminal answered to a parameter query (0x0104) as the form's values: the named
 * parameters it reported, by name; ids the form does not name, and values of another wire type
 * than the form's (a vendor's odd width), are left out rather than shown wrongly.
 */
export function paramValues(answered: ReadonlyArray<{ id: number; type: string; value: unknown }>): Record<string, number | string> {
  const values: Record<string, number | string> = {};
  for (const def of TERMINAL_PARAMS) {
    const p = answered.find((a) => a.id === def.id);
    if (!p) continue;
    const fits =
      def.type === 'string'
        ? p.type === 'string' && typeof p.value === 'string'
        : p.type !== 'string' && p.type !== 'bytes' && typeof p.value === 'number';
    if (fits) values[def.name] = p.value as number | string;
  }
  return values;
}
