/** Repository roles from least to most; a higher one includes the lower ones. */
export const PERMISSIONS = ['read', 'triage', 'write', 'maintain', 'admin'] as const
export type Permission = (typeof PERMISSIONS)[number]

/**
 * The collaborator permission endpoint answers `permission` (admin, write, read, none) and
 * `role_name` (which also knows triage and maintain, or a custom role). Use the finer one when known.
 */
function effectiveRank(permission: string | undefined, roleName: string | undefined): number {
  const rank = (name: string | undefined): number =>
    (PERMISSIONS as readonly (string | undefined)[]).indexOf(name)
  return Math.max(rank(roleName), rank(permission))
}

export function hasPermission(
  permission: string | undefined,
  roleName: string | undefined,
  required: Permission
): boolean {
  return effectiveRank(permission, roleName) >= PERMISSIONS.indexOf(required)
}
