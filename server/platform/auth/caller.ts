import { NONE } from '../../../schemas/kit/authority';
import { pathInSubtree } from '../scope';

/** Who is calling: every route handler receives this (never trusting X-Authority). */
export type MemberType = 'administrator' | 'orgUser' | 'serviceUser' | 'externalUser';
export const MEMBER_TYPES: readonly MemberType[] = ['administrator', 'orgUser', 'serviceUser', 'externalUser'];

/** 'full' sessions act normally; 'password' sessions (weak password at login) may only change it. */
export type SessionScope = 'full' | 'password';

export interface Caller {
  memberId: number;
  uid: string;
  name: string;
  loginName: string;
  memberType: MemberType;
  orgId: number;
  orgName: string;
  orgType: string;
  /** '/1/4/': the caller sees this organisation and everything below it. */
  orgPath: string;
  sessionId: string;
  scope: SessionScope;
  /** Set when this session impersonates the member: the session of the member acting. */
  originSessionId: string | null;
  application: string;
  /** Holds every action code: administrators of the system organisation. */
  allCodes: boolean;
  /** The member's organisation is a system organisation (the platform operator's). */
  orgIsSystem: boolean;
  codes: ReadonlySet<string>;
  /** Set when an API key calls (on behalf of `memberId`, its creator): routes for people only refuse it. */
  apiKey?: { id: number; apiUserId: number };
}

export { NONE };
export const PUBLIC = 'PUBLIC';

export function can(caller: Caller, code: string): boolean {
  return code === NONE || caller.allCodes || caller.codes.has(code);
}

/** Whether an organisation path lies inside the caller's subtree. */
export const inSubtree = (caller: Caller, orgPath: string) => pathInSubtree(caller.orgPath, orgPath);
