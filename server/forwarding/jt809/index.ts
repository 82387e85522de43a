/** JT/T 809 (2011 and 2019 editions): framing, header, CRC, the simple encryption, and the bodies. */

export * from './constants';
export * from './errors';
export { crcCcitt } from './crc';
export { xcrypt, checkCipher, type Jt809Cipher } from './cipher';
export { escapeFrame, unescapeFrame, FrameSplitter } from './framing';
export * from './packet';
export * from './messages';
