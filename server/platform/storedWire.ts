/**
 * The bus's wire form of a committed batch (`{ inserted: [{ source, record }] }`, the stored
 * topics): each terminal's identity once, each record as its values in one key order. A 2,000-row
 * batch as plain JSON repeated the identity and every key name on every row (447 bytes a row), and
 * stringifying and parsing it cost ~4 µs a row in each of the processes reading it (docs/benchmarks.md,
 * "Profiling the ingest"). Decoding gives back the same payload: a record whose keys differ from the
 * first record's, or that holds an undefined value (JSON would drop or turn it into null), travels
 * as its own object. Anything else, or a body written before this form, passes through unchanged.
 */

/** Marks the packed form; a payload of the stored topics never has this key. */
const PACKED = '$packed';

interface Packed {
  [PACKED]: 1;
  sources: unknown[];
  keys: string[];
  /** [source index, ...values in `keys` order], or [-1 - source index, record] when the record does not fit `keys`. */
  rows: unknown[][];
}

interface Row {
  source: object;
  record: Record<string, unknown>;
}

const isRows = (list: unknown): list is Row[] =>
  Array.isArray(list) &&
  list.length > 0 &&
  list.every((x) => typeof x === 'object' && x !== null && typeof (x as Row).source === 'object' && typeof (x as Row).record === 'object');

/** Whether `record` has exactly `keys`, in that order, none of them undefined. */
function fits(record: Record<string, unknown>, keys: string[]): boolean {
  let n = 0;
  for (const k in record) {
    if (keys[n] !== k || record[k] === undefined) return false;
    n++;
  }
  return n === keys.length;
}

/** The payload in the packed form when it is a stored batch with nothing besides `inserted`; otherwise itself. */
export function packStored(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null || Object.keys(payload).length !== 1) return payload;
  const list = (payload as { inserted?: unknown }).inserted;
  if (!isRows(list)) return payload;
  const keys = Object.keys(list[0].record);
  const sources: unknown[] = [];
  const index = new Map<object, number>();
  const rows: unknown[][] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const { source, record } = list[i];
    let s = index.get(source);
    if (s === undefined) {
      s = sources.length;
      index.set(source, s);
      sources.push(source);
    }
    if (!fits(record, keys)) {
      rows[i] = [-1 - s, record];
      continue;
    }
    const row: unknown[] = new Array(keys.length + 1);
    row[0] = s;
    for (let k = 0; k < keys.length; k++) row[k + 1] = record[keys[k]];
    rows[i] = row;
  }
  return { [PACKED]: 1, sources, keys, rows } satisfies Packed;
}

/** Back to `{ inserted: [{ source, record }] }` from the packed form; any other payload as it is. */
export function unpackStored(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null || (payload as Packed)[PACKED] !== 1) return payload;
  const { sources, keys, rows } = payload as Packed;
  const inserted: Array<{ source: unknown; record: unknown }> = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const s = row[0] as number;
    if (s < 0) {
      inserted[i] = { source: sources[-1 - s], record: row[1] };
      continue;
    }
    const record: Record<string, unknown> = {};
    for (let k = 0; k < keys.length; k++) record[keys[k]] = row[k + 1];
    inserted[i] = { source: sources[s], record };
  }
  return { inserted };
}
