/** Which screen a path opens (SPEC §2). Pure, so it is tested without a browser. */
export type Screen =
  | { kind: 'livehub' }
  | { kind: 'auction'; auctionId: string }
  | { kind: 'live'; slug: string | null; sessionId: string | null }
  | { kind: 'pay'; paymentId: string }
  | { kind: 'invitations' }
  | { kind: 'purchases' }
  | { kind: 'home' }
  | { kind: 'search' }
  | { kind: 'store'; slug: string }
  | { kind: 'alerts' }
  | { kind: 'sell' }
  | { kind: 'admin' };

export const ADMIN_HOME = '/admin';
export const LIVE_HUB_PATH = '/admin/livehub';
export const PRIVACY_POLICY_PATH = '/privacy-policy.html';
/** Where an invited person answers its invitations: the address an admin passes on. */
export const INVITATIONS_PATH = '/invitaciones';
/** A buyer's own page: every lot they won, their bills and how to pay them. */
export const PURCHASES_PATH = '/compras';
/** The same page under the name its link carries ('Mis compras'), for an address typed from it. */
const PURCHASES_ALIAS = '/mis-compras';

/** The buyers' home: live shows, upcoming shows, categories and the search box, for everyone. */
export const HOME_PATH = '/';
/** The search's results page (`?q=&categoria=`), a link anyone can share. */
export const SEARCH_PATH = '/buscar';
/** 'Mis alertas': the sellers a buyer follows and the shows they asked to be told about. */
export const ALERTS_PATH = '/alertas';
/** 'Quiero vender': an account without a seller role asks to sell. */
export const SELL_PATH = '/vender';
/** A seller's public page, by the seller's slug (the one live links use). */
export const storePath = (slug: string) => `/tienda/${encodeURIComponent(slug)}`;

/** The public checkout a payment link opens (the sandbox's, and where Mercado Pago's back_urls land). */
export const payPath = (paymentId: string) => `/pay/${encodeURIComponent(paymentId)}`;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function screenForPath(pathname: string): Screen {
  if (/\/livehub\/?$/.test(pathname)) return { kind: 'livehub' };
  const segments = pathname.split('/').filter(Boolean).map(decode);
  const [first, second, third, ...rest] = segments;
  if (segments.length === 0) return { kind: 'home' };
  if (first === 'tienda' && second && !third) return { kind: 'store', slug: second };
  if (`/${first}` === SEARCH_PATH && !second) return { kind: 'search' };
  if (`/${first}` === ALERTS_PATH && !second) return { kind: 'alerts' };
  if (`/${first}` === SELL_PATH && !second) return { kind: 'sell' };
  if (first === 'auctions' && second && !third) return { kind: 'auction', auctionId: second };
  if (first === 'pay' && second && !third) return { kind: 'pay', paymentId: second };
  if (`/${first}` === INVITATIONS_PATH && !second) return { kind: 'invitations' };
  if ((`/${first}` === PURCHASES_PATH || `/${first}` === PURCHASES_ALIAS) && !second) return { kind: 'purchases' };
  if (first === 'live' && rest.length === 0) {
    if (second && third) return { kind: 'live', slug: second, sessionId: third };
    return { kind: 'live', slug: null, sessionId: second ?? null };
  }
  return { kind: 'admin' };
}
