/** The admin panel's windows, each its own chunk; the panel and its navbar both name them. */

// The windows are not in the panel's first load: the first screen is the auctions list.
// Each is fetched when first opened, or when the pointer or focus shows it is likely next.
export const WINDOWS = {
  auctionForm: () => import('../components/auction-form/auction-form-modal').then((m) => m.AuctionFormModal),
  categories: () => import('./categories/categories-modal').then((m) => m.CategoriesModal),
  users: () => import('./users/users-modal').then((m) => m.UsersModal),
  companies: () => import('./companies/companies-modal').then((m) => m.CompaniesModal),
  moderation: () => import('./moderation/moderation-modal').then((m) => m.ModerationModal),
  payments: () => import('./payments/payments-modal').then((m) => m.PaymentsModal),
  profile: () => import('../components/profile-modal').then((m) => m.ProfileModal),
  applications: () => import('./applications/applications-modal').then((m) => m.ApplicationsModal),
} as const;
export type LazyWindowName = keyof typeof WINDOWS;

const prefetched = new Set<LazyWindowName>();

/** Starts fetching a window's code ahead of the click, once; a failure is met again, and shown, when it opens. */
export function prefetchWindow(name: LazyWindowName): void {
  if (prefetched.has(name)) return;
  prefetched.add(name);
  WINDOWS[name]().catch(() => prefetched.delete(name));
}
