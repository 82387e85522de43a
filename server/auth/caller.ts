/** Who is calling: every route handler receives this (never trusting X-Authority). */
export type MemberType = 'administrator' | 'orgUser' | 'serviceUser' | 'externalUser';
export const MEMBER_TYPES: readonly MemberType[] = ['administrator', 'orgUser', 'serviceUser', 'externalUser'];

export interface Caller {
  memberId: number;
  uid: string;
  name: string;
  loginName: string;
  memberType: MemberType;
  orgId: number;
  /** '/1/4/': the caller sees this organisation and everything below it. */
  orgPath: string;
  sessionId: string;
  application: string;
  /** Holds every action code (administrators until roles decide otherwise). */
  allCodes: boolean;
  codes: ReadonlySet<string>;
}

export const NONE = 'NONE';
export const PUBLIC = 'PUBLIC';

export function can(caller: Caller, code: string): boolean {
  return code === NONE || caller.allCodes || caller.codes.has(code);
}
