/**
 * *Quiero vender* without Zod: the shapes, limits and the 30-day rule the sell page reads, so the
 * page's chunk does not carry the schemas (seller-applications.ts adds them).
 */

export const SELLER_APPLICATION_STATUSES = ['pending', 'approved', 'declined'] as const;
export type SellerApplicationStatus = (typeof SELLER_APPLICATION_STATUSES)[number];

/** Days a declined applicant waits before applying again. */
export const REAPPLY_AFTER_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** When someone declined at `decidedAt` (epoch ms) may apply again. */
export function reapplyAt(decidedAt: number): number {
  return decidedAt + REAPPLY_AFTER_DAYS * DAY_MS;
}

export const APPLICATION_LIMITS = {
  businessName: { min: 2, max: 120 },
  city: { min: 2, max: 80 },
  description: { min: 10, max: 1000 },
  reason: { min: 5, max: 500 },
} as const;

/** What POST /api/seller-applications takes (ZSellerApplicationInput checks it). */
export interface SellerApplicationInput {
  businessName: string;
  city: string;
  /** 10 digits for Mexico, or with its country code: '+1 415 555 2671'. */
  whatsapp: string;
  description: string;
  rfc?: string | null;
}

/** One request as GET /api/seller-applications answers it (the applicant's own, or every one for a platform admin). */
export interface SellerApplication {
  id: string;
  userId: string;
  applicantName: string | null;
  applicantEmail: string;
  businessName: string;
  city: string;
  /** E.164, '+523312345678'. */
  whatsapp: string;
  description: string;
  rfc: string | null;
  status: SellerApplicationStatus;
  declineReason: string | null;
  decidedAt: number | null;
  /** For a declined request: when the applicant may apply again. */
  reapplyAt: number | null;
  /** The company approval made. */
  companyId: string | null;
  createdAt: number;
}

export interface SellerApplicationList {
  items: SellerApplication[];
  /** Requests waiting for a decision (a platform admin's nav badge); the applicant's own otherwise. */
  pending: number;
}
