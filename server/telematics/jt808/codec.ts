/**
 * JT/T 808 codec, public entry point.
 *
 *   decodeFrame(wireBytes)  -> DecodedMessage (narrow on msgId), throws only Jt808DecodeError
 *   decodePacket(packet)    -> same, for FrameSplitter output (unescaped, no flags)
 *   encodeFrame(header, body)      -> wire bytes (escaping, checksum, length bits, subpackages)
 *   encodeMessage(header, message) -> wire bytes of a typed message
 *
 * Narrowing: `if (m.opaque) ...` (unknown id, fragment, encrypted: body is a Buffer) first,
 * then `switch (m.msgId)` gives the precise body type. Streams: FrameSplitter per connection,
 * SubpackageAssembler for fragments.
 */

export * from './constants';
export * from './errors';
export { FrameSplitter, escapeFrame, unframe, unframeRange, unescapeBytes, xorChecksum } from './framing';
export type { FrameSplitterOptions, FrameSplitterStats } from './framing';
export { parseHeader, writeHeader, headerSize } from './header';
export type { HeaderInput, Jt808Header, PacketInfo, ParsedHeader } from './header';
export { decodeFrame, decodePacket, decodePacketRange, buildMessage, isKnown } from './decode';
export type { DecodeOptions, DecodedMessage, KnownMessage, MessageMeta, OpaqueMessage } from './decode';
export { encodeFrame, encodeFrames, encodeMessage, encodeMessageFrames, encodePacket } from './encode';
export type { EncodeFrameOptions, MessageHeaderInput } from './encode';
export { ResponseEncoder } from './responseEncoder';
export type { ResponseHeader } from './responseEncoder';
export { SubpackageAssembler } from './subpackage';
export type { SubpackageOptions, SubpackageStats } from './subpackage';
export { decodeGbk, encodeGbk } from './gbk';
export * from './messages';
export { messageToJson, locationToJson, toJsonValue, formatMsgId, errorToJson } from './toJson';
export type { JsonMessage, JsonValue } from './toJson';
