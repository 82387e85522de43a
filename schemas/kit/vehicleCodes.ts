/**
 * Licence plates and VINs as China issues them (GA 36-2018, GB 16735), one definition for the
 * schema formats both sides check and for the normalisation they are stored in.
 */

const PROVINCE = '[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼]';
/** Plate letters: Latin capitals without I and O (they read as 1 and 0). */
const L = '[A-HJ-NP-Z]';
const LD = '[A-HJ-NP-Z0-9]';

/**
 * The plate shapes we accept:
 * - ordinary (blue/yellow/black/white): 沪A12345, 沪AB1234;
 * - the last sign a kind: trailer 挂, coach 学, police 警, Hong Kong/Macao 港/澳, consulate 领, test 试, temporary 超;
 * - new-energy (green, 8 signs): small 沪AD12345 / 沪AFA1234, large 沪A12345D;
 * - embassy 使014578 / 123456使, armed police WJ沪12345 / WJ12345, military VA12345, civil aviation 民航A1234;
 * - FOREIGN_PLATE_PREFIX followed by 2–15 letters, digits, spaces or hyphens: a foreign plate, unchecked beyond that.
 */
export const PLATE_PATTERNS: readonly RegExp[] = [
  new RegExp(`^${PROVINCE}${L}${LD}{4}[A-HJ-NP-Z0-9挂学警港澳领试超]$`),
  new RegExp(`^${PROVINCE}${L}(?:[DF]${LD}\\d{4}|\\d{5}[DF])$`),
  /^使\d{6}$/,
  /^\d{6}使$/,
  new RegExp(`^WJ${PROVINCE}?\\d{4}[0-9A-Z消边通森金警电]$`),
  /^[A-Z]{2}\d{5}$/,
  new RegExp(`^民航${LD}{5}$`),
];

/** The documented escape for a foreign plate: `#` then the plate as issued, e.g. `#ABC-1234`. */
export const FOREIGN_PLATE_PREFIX = '#';
const FOREIGN_PLATE = /^#[A-Z0-9][A-Z0-9 -]{0,13}[A-Z0-9]$/;

export const isLicencePlate = (s: string): boolean => FOREIGN_PLATE.test(s) || PLATE_PATTERNS.some((p) => p.test(s));

/** 17 signs, no I, O or Q (ISO 3779); the check digit (9th) is not enforced: Chinese VINs often omit it. */
export const VIN = /^[A-HJ-NPR-Z0-9]{17}$/;

/**
 * Normalisations a property may declare with `x-normalize` (applied before validation on the
 * server, in forms and in imports), so " 沪a10137 " and "沪A10137" are one plate.
 */
export const NORMALISERS = {
  trim: (s: string) => s.trim(),
  upper: (s: string) => s.toUpperCase(),
  /** Inner runs of spaces removed as well (plates, VINs, codes are written with stray spaces). */
  compact: (s: string) => s.replace(/\s+/g, ''),
} as const;

export type Normaliser = keyof typeof NORMALISERS;
