import type { Me } from '../../../domain/api-types.js';
import { hasPanelAccess } from '../../api/me';
import { ADMIN_HOME, ALERTS_PATH, PURCHASES_PATH, SELL_PATH } from '../../routes';

/** The pages a signed-in account reaches from the header, in the order the menu shows them. */
export interface HeaderLink {
  key: 'alerts' | 'purchases' | 'panel' | 'sell';
  href: string;
}

/** Mis alertas and Mis compras for everyone signed in; Panel for sellers and admins, Quiero vender for the rest. */
export function headerLinks(me: Me): HeaderLink[] {
  const links: HeaderLink[] = [
    { key: 'alerts', href: ALERTS_PATH },
    { key: 'purchases', href: PURCHASES_PATH },
  ];
  links.push(hasPanelAccess(me) ? { key: 'panel', href: ADMIN_HOME } : { key: 'sell', href: SELL_PATH });
  return links;
}
