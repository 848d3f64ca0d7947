// How roles rank, for the confirmation a role change asks for
// (D-role-change-confirm): a change that raises a user to an admin- or
// owner-level customer role, or to a higher internal role, is confirmed by
// typing the user's e-mail address; any other change by a plain
// confirmation. Nothing is saved when the select changes.

// Customer roles by rank: viewer and member read or work, billing pays,
// admin administers, owner owns.
const CUSTOMER_RANK: Record<string, number> = { viewer: 1, member: 1, billing: 2, admin: 3, owner: 4 };

// Internal roles by rank: reader reads; the specialist roles hold one area;
// account_manager holds its customers; platform_admin holds everything.
// No role ("", a user whose groups give it one) ranks lowest.
const INTERNAL_RANK: Record<string, number> = {
  "": 0, reader: 1, finance_admin: 2, compliance_admin: 2, qa_admin: 2, infra_ops: 2, account_manager: 3, platform_admin: 4,
};

// ADMIN_LEVEL are the customer roles that administer the customer.
const ADMIN_LEVEL = new Set(["admin", "owner"]);

export function rankOf(role: string): number {
  return CUSTOMER_RANK[role] ?? INTERNAL_RANK[role] ?? 0;
}

export function isInternalRole(role: string): boolean {
  return role !== "" && role in INTERNAL_RANK;
}

// raisesPrivilege says whether moving a user from one role to another needs
// the typed confirmation: a move up the ranking to an admin-level customer
// role or to any internal role.
export function raisesPrivilege(from: string, to: string): boolean {
  if (rankOf(to) <= rankOf(from)) return false;
  return ADMIN_LEVEL.has(to) || isInternalRole(to);
}
