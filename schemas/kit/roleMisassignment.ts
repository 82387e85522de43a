/**
 * An account holding a role of an organisation outside its own and those above it (made before the
 * rule was enforced): the server lists them, the accounts page shows them.
 */
export interface RoleMisassignment {
  memberId: number;
  loginName: string;
  memberName: string;
  orgName: string;
  roleId: number;
  roleName: string;
  roleOrgName: string;
}
