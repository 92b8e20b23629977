import { canUsePanel, isAdmin, isPlatformAdmin, type Role } from '../../domain/role-rules.js';

/** Room names, in one place: `auction:<id>`, `session:<id>`, `company:<id>` (STYLE.md). */
export const rooms = {
  auction: (id: string) => `auction:${id}`,
  session: (id: string) => `session:${id}`,
  /** The Live Hub's own sockets in a session room: not counted as viewers. */
  sessionHost: (id: string) => `sessionhost:${id}`,
  /** A company's panels: its admins and sellers (auction ids and versions only). */
  company: (id: string) => `company:${id}`,
  /** A company's admins alone: they may read every payment of the company. */
  companyAdmins: (id: string) => `company-admins:${id}`,
  user: (id: string) => `user:${id}`,
  authSession: (id: string) => `authsession:${id}`,
  /** Platform admins (admin role, no company of their own): every company. */
  admins: 'admins',
} as const;

/** The rooms a signed-in user's access grants; everything else private is left on a change. */
export function accessRooms(user: { roles: readonly Role[]; profileCompanyId: string | null; companyId: string }): string[] {
  const granted: string[] = [];
  if (canUsePanel(user.roles)) granted.push(rooms.company(user.companyId));
  if (isAdmin(user.roles) && !isPlatformAdmin(user)) granted.push(rooms.companyAdmins(user.companyId));
  // Only a platform admin (no company of its own) watches every company.
  if (isPlatformAdmin(user)) granted.push(rooms.admins);
  return granted;
}

/** Whether a room is one `accessRooms` hands out (and so one a change of access may take away). */
export function isAccessRoom(room: string): boolean {
  return room === rooms.admins || room.startsWith('company:') || room.startsWith('company-admins:');
}

/** Who may read a payment over HTTP (payments' scope): its seller, its company's admins, the platform admins. Never a co-seller. */
export function paymentAudience(payment: { companyId: string; sellerId: string | null }): string[] {
  return [rooms.companyAdmins(payment.companyId), rooms.admins, ...(payment.sellerId ? [rooms.user(payment.sellerId)] : [])];
}
