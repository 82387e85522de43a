/**
 * The checks an uploaded configuration XML passes before it is kept (DESIGN.md Security: XML parsed
 * with entity expansion off): a known text encoding, no DOCTYPE or entity declaration at all (so
 * no billion laughs and no external entities, XXE), well-formed, and parsed with entity processing
 * off and a bounded nesting depth.
 */

import { TextDecoder } from 'node:util';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { AppError } from '../platform/http/errors';

/** Encodings a declaration may name (configuration files from Chinese tools are often GBK). */
const ENCODINGS: Record<string, string> = { 'utf-8': 'utf-8', utf8: 'utf-8', gbk: 'gbk', gb2312: 'gbk', gb18030: 'gb18030' };

const MAX_NESTING = 64;

const badXml = () => new AppError(400, 'upload.badXml');

/** The document as text in the encoding its declaration names (UTF-8 by default); bytes that are not text are refused. */
export function xmlText(data: Buffer): string {
  let bytes = data;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /^<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
  const encoding = declared === undefined ? 'utf-8' : ENCODINGS[declared];
  if (!encoding) throw badXml();
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw badXml();
  }
}

export interface CheckedXml {
  /** Name of the document element. */
  root: string;
}

/** Refuses (localised 400) anything but a plain, well-formed XML document. */
export function checkXml(data: Buffer): CheckedXml {
  const text = xmlText(data);
  // Refused wherever it appears, even in a comment: nothing here ever needs a DTD.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new AppError(400, 'upload.dtdForbidden');
  if (XMLValidator.validate(text) !== true) throw badXml();
  let doc: Record<string, unknown>;
  try {
    doc = new XMLParser({
      processEntities: false,
      htmlEntities: false,
      ignoreAttributes: false,
      ignoreDeclaration: true,
      ignorePiTags: true,
      maxNestedTags: MAX_NESTING,
    }).parse(text) as Record<string, unknown>;
  } catch {
    throw badXml();
  }
  const roots = Object.keys(doc).filter((k) => !k.startsWith('?') && k !== '#comment');
  if (roots.length !== 1) throw badXml();
  return { root: roots[0] };
}
