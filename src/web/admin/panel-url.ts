import { PAYMENT_STATUSES } from '../../domain/payment-status.js';
import { USER_ROLE_FILTERS, type UserRoleFilter } from '../../domain/role-rules.js';

/**
 * Every query-string key of the panel, in one place: the auction list's own (filter, search, page,
 * pageSize) and the open window's. Defaults are left out so /admin stays clean.
 */
export const PANEL_PARAMS = {
  view: 'filter',
  search: 'search',
  page: 'page',
  pageSize: 'pageSize',
  window: 'window',
  tab: 'tab',
  role: 'role',
  status: 'status',
  /** The open window's search and page: the auction list behind it keeps its own. */
  windowSearch: 'q',
  windowPage: 'wpage',
} as const;

/** Same bound as the servers' list queries. */
export const MAX_SEARCH_LENGTH = 100;
export const MAX_PAGE = 100_000;

/** The panel's windows that live in the URL (the auction form does not: it holds unsaved input). */
export const PANEL_WINDOWS = ['categories', 'users', 'companies', 'moderation', 'payments', 'profile', 'applications'] as const;
export type PanelWindow = (typeof PANEL_WINDOWS)[number];

export const USERS_TABS = ['users', 'invitations'] as const;
export type UsersTab = (typeof USERS_TABS)[number];

export const PAYMENT_STATUS_FILTERS = ['all', ...PAYMENT_STATUSES] as const;
export type PaymentStatusFilter = (typeof PAYMENT_STATUS_FILTERS)[number];

export interface WindowState {
  window: PanelWindow | null;
  /** Usuarios: which tab. */
  tab: UsersTab;
  /** Usuarios: the role filter. */
  role: UserRoleFilter;
  /** Pagos: the status filter. */
  status: PaymentStatusFilter;
  /** Usuarios, Pagos, Empresas: the applied (debounced) search, trimmed. */
  search: string;
  /** Usuarios, Empresas: the page. */
  page: number;
}

export const DEFAULT_WINDOW_STATE: WindowState = { window: null, tab: 'users', role: 'all', status: 'all', search: '', page: 1 };

const isOneOf =
  <T extends string>(values: readonly T[]) =>
  (value: unknown): value is T =>
    typeof value === 'string' && (values as readonly string[]).includes(value);

export const isPanelWindow = isOneOf(PANEL_WINDOWS);
export const isUsersTab = isOneOf(USERS_TABS);
export const isUserRoleFilter = isOneOf(USER_ROLE_FILTERS);
export const isPaymentStatusFilter = isOneOf(PAYMENT_STATUS_FILTERS);

/** A search from the URL as the lists apply it: trimmed and cut to the servers' bound. */
export function parseSearch(value: string | null): string {
  return (value ?? '').trim().slice(0, MAX_SEARCH_LENGTH);
}

/** A page from the URL: a whole number from 1; anything else is page 1. */
export function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1;
}

/** Reads the open window and its controls; anything malformed falls back to its default. */
export function parseWindowState(params: URLSearchParams): WindowState {
  const window = params.get(PANEL_PARAMS.window);
  const tab = params.get(PANEL_PARAMS.tab);
  const role = params.get(PANEL_PARAMS.role);
  const status = params.get(PANEL_PARAMS.status);
  if (!isPanelWindow(window)) return DEFAULT_WINDOW_STATE;
  return {
    window,
    tab: isUsersTab(tab) ? tab : DEFAULT_WINDOW_STATE.tab,
    role: isUserRoleFilter(role) ? role : DEFAULT_WINDOW_STATE.role,
    status: isPaymentStatusFilter(status) ? status : DEFAULT_WINDOW_STATE.status,
    search: parseSearch(params.get(PANEL_PARAMS.windowSearch)),
    page: parsePage(params.get(PANEL_PARAMS.windowPage)),
  };
}

/** Which of a window's controls it keeps in the URL; the others are dropped on write. */
function keysOf(state: WindowState): Set<keyof WindowState> {
  switch (state.window) {
    case 'users':
      // The invitations tab has no filter of its own: Back to 'Usuarios' brings the filters back.
      return new Set(state.tab === 'users' ? ['tab', 'role', 'search', 'page'] : ['tab']);
    case 'payments':
      return new Set(['status', 'search']);
    case 'companies':
      return new Set(['search', 'page']);
    default:
      return new Set();
  }
}

/** A copy of `params` holding `state`; the auction list's keys are kept, a closed window leaves none. */
export function writeWindowState(params: URLSearchParams, state: WindowState): URLSearchParams {
  const next = new URLSearchParams(params);
  const keys = keysOf(state);
  const set = (key: string, field: keyof WindowState, value: string, isDefault: boolean) => {
    if (!keys.has(field) || isDefault) next.delete(key);
    else next.set(key, value);
  };
  if (state.window) next.set(PANEL_PARAMS.window, state.window);
  else next.delete(PANEL_PARAMS.window);
  set(PANEL_PARAMS.tab, 'tab', state.tab, state.tab === DEFAULT_WINDOW_STATE.tab);
  set(PANEL_PARAMS.role, 'role', state.role, state.role === DEFAULT_WINDOW_STATE.role);
  set(PANEL_PARAMS.status, 'status', state.status, state.status === DEFAULT_WINDOW_STATE.status);
  set(PANEL_PARAMS.windowSearch, 'search', state.search, state.search === '');
  set(PANEL_PARAMS.windowPage, 'page', String(state.page), state.page === 1);
  return next;
}
