/** Shared bits of TLV-style additional items. */

/** An item we do not understand, kept verbatim. */
export interface UnknownItem {
  id: number;
  hex: string;
}

/** True when [s, e) is exactly a sequence of BYTE id, BYTE len, value items. */
export function byteTlvFits(p: Buffer, s: number, e: number): boolean {
  let o = s;
  while (o + 2 <= e) o += 2 + p[o + 1];
  return o === e;
}

export function itemKey(id: number): string {
  return `0x${id.toString(16).padStart(2, '0').toUpperCase()}`;
}
