/** JT/T 809 wire constants and message ids (main link 0x1xxx up, sub link 0x9xxx down). */

export const HEAD_FLAG = 0x5b;
export const END_FLAG = 0x5d;
/** Escape leads: 0x5a for 0x5b/0x5a, 0x5e for 0x5d/0x5e. */
export const ESCAPE_HEAD = 0x5a;
export const ESCAPE_END = 0x5e;

/** Header bytes: 22 in the 2011 edition, 30 in 2019's (an 8-byte UTC time appended). */
export const HEADER_BYTES = { 2011: 22, 2019: 30 } as const;
export type Jt809Edition = keyof typeof HEADER_BYTES;
export const CRC_BYTES = 2;
/** A frame longer than this (unescaped) is refused; the standard's messages are far smaller. */
export const MAX_FRAME_BYTES = 64 * 1024;

export const MSG = {
  UP_CONNECT_REQ: 0x1001,
  UP_CONNECT_RSP: 0x1002,
  UP_DISCONNECT_REQ: 0x1003,
  UP_DISCONNECT_RSP: 0x1004,
  UP_LINKTEST_REQ: 0x1005,
  UP_LINKTEST_RSP: 0x1006,
  UP_DISCONNECT_INFORM: 0x1007,
  UP_CLOSELINK_INFORM: 0x1008,
  DOWN_CONNECT_REQ: 0x9001,
  DOWN_CONNECT_RSP: 0x9002,
  DOWN_DISCONNECT_REQ: 0x9003,
  DOWN_DISCONNECT_RSP: 0x9004,
  DOWN_LINKTEST_REQ: 0x9005,
  DOWN_LINKTEST_RSP: 0x9006,
  DOWN_DISCONNECT_INFORM: 0x9007,
  DOWN_CLOSELINK_INFORM: 0x9008,
  UP_EXG_MSG: 0x1200,
  UP_WARN_MSG: 0x1400,
  UP_BASE_MSG: 0x1600,
  DOWN_BASE_MSG: 0x9600,
} as const;

/** Sub-business types (DATA_TYPE) inside 0x1200, 0x1400 and 0x1600. */
export const SUB = {
  UP_EXG_MSG_REAL_LOCATION: 0x1202,
  UP_WARN_MSG_ADPT_INFO: 0x1402,
  UP_BASE_MSG_VEHICLE_ADDED_ACK: 0x1601,
  /** The superior asks for a vehicle's static information (answered by 0x1601). */
  DOWN_BASE_MSG_VEHICLE_ADDED: 0x9601,
} as const;

/** 0x1002 results. */
export const LOGIN_RESULT = {
  OK: 0,
  BAD_IP: 1,
  BAD_ACCESS_CODE: 2,
  NO_USER: 3,
  BAD_PASSWORD: 4,
  BUSY: 5,
  OTHER: 9,
} as const;
