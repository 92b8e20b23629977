/**
 * What an invited person's answer does, without Zod (invitations.ts has the schemas): the screen that
 * asks a signed-in user to accept or decline is part of the panel's gate, which must stay light.
 */
import { isAdmin, type Role } from './role-rules.js';

/** The role an invitation offers. Only sellers are invited; admins are made by a platform admin. */
export const INVITED_ROLE = 'seller' satisfies Role;

/**
 * What accepting an invitation into `companyId` would do to this account:
 * - 'join': a buyer with no company becomes a seller of it;
 * - 'member': already in that company, it only gains the seller role if missing;
 * - 'move': a seller of another company (or a seller who is a company of its own) leaves it for this one;
 * - 'adminBlocked': an admin (of the platform or of another company) must first give up that role,
 *   given by another admin: a seat in a company would quietly take a platform admin's powers away,
 *   or carry a company admin's rights into a company that invited a seller.
 */
export type InvitationAcceptance = 'join' | 'member' | 'move' | 'adminBlocked';

export function invitationAcceptance(account: { roles: readonly Role[]; profileCompanyId: string | null }, companyId: string): InvitationAcceptance {
  if (account.profileCompanyId === companyId) return 'member';
  if (isAdmin(account.roles)) return 'adminBlocked';
  if (account.profileCompanyId !== null || account.roles.includes('seller')) return 'move';
  return 'join';
}

/** How an admin's invitation list shows one: 'expired' and 'declined' stay listed so the admin sees why nobody joined. */
export type InvitationStatus = 'pending' | 'expired' | 'declined';

/**
 * GET /api/invitations and the answer to POST /api/invitations: only what the admin typed and the
 * invitation's own state, never anything about an account that may hold the address.
 */
export interface Invitation {
  id: string;
  email: string;
  companyId: string;
  companyName: string | null;
  /** Who sent it; null once that account is gone. */
  invitedByName: string | null;
  createdAt: number;
  expiresAt: number;
  status: InvitationStatus;
}

export interface InvitationListResponse {
  items: Invitation[];
}

/** GET /api/me/invitations: an invitation addressed to the signed-in account, still open. */
export interface ReceivedInvitation {
  id: string;
  companyId: string;
  companyName: string | null;
  invitedByName: string | null;
  role: typeof INVITED_ROLE;
  createdAt: number;
  expiresAt: number;
}

export interface ReceivedInvitationList {
  items: ReceivedInvitation[];
}

/** POST /api/invitations/{id}/accept and /decline. */
export interface InvitationAnswer {
  id: string;
  companyId: string;
  companyName: string | null;
  status: 'accepted' | 'declined';
}
