import type { MemberType } from './caller';

/**
 * The action codes a member holds. Until roles exist, administrators hold every code and other
 * members none; the passport issue replaces this with the member's roles.
 */
export function grantedCodes(memberType: MemberType): { allCodes: boolean; codes: Set<string> } {
  return memberType === 'administrator' ? { allCodes: true, codes: new Set() } : { allCodes: false, codes: new Set() };
}
