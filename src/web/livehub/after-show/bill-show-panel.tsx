import type { LiveSessionData } from '../../api/live';

/** 'Cobrar el show': built by the show-billing work (shipping rules, one bill per buyer, links, WhatsApp). */
export function BillShowPanel(_props: { detail: LiveSessionData }) {
  return null;
}
