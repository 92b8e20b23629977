import type { MantineColor } from '@mantine/core';
import { canUsePanel, isAdmin, ROLES, type Role } from '../../../domain/role-rules.js';
import type { UserListItem } from '../../../domain/users.js';

/** 'Nombre Apellidos', else the Google display name; null when the profile has neither. */
export function userDisplayName(user: Pick<UserListItem, 'firstName' | 'lastName' | 'displayName'>): string | null {
  const full = [user.firstName, user.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return full || user.displayName?.trim() || null;
}

/** How to name a user in labels and messages: the name, else the email. */
export function userLabel(user: UserListItem): string {
  return userDisplayName(user) ?? user.email;
}

/** What an admin loses by saving `after` as its own roles: the whole panel, the admin tools, or nothing. */
export type AccessLoss = 'panel' | 'admin' | null;

export function selfAccessLoss(before: readonly Role[], after: readonly Role[]): AccessLoss {
  if (canUsePanel(before) && !canUsePanel(after)) return 'panel';
  if (isAdmin(before) && !isAdmin(after)) return 'admin';
  return null;
}

/** Roles in a fixed order (admin, seller, buyer), without duplicates. */
export function orderedRoles(roles: readonly string[]): Role[] {
  return ROLES.filter((role) => roles.includes(role));
}

export function sameRoles(a: readonly Role[], b: readonly Role[]): boolean {
  return orderedRoles(a).join() === orderedRoles(b).join();
}

export const ROLE_COLORS: Record<Role, MantineColor> = {
  admin: 'grape',
  seller: 'blue',
  buyer: 'gray',
};
