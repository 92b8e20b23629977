import { formatMoney } from '../../../domain/money.js';
import { paymentMessage, type WonItem, whatsappLink } from '../../../domain/payments.js';

/** The wa.me links of the billing screens: the payment link's message, or a plain chat. */

export interface LinkMessageInput {
  winnerName: string;
  winnerWhatsapp: string | null;
  wonItems: WonItem[];
  shippingCost: number;
  grandTotal: number;
}

/** The wa.me link that sends the winner its payment link (SPEC §2 'Enviar enlace de pago'); null without a number. */
export function paymentWhatsappHref(p: LinkMessageInput, link: string): string | null {
  if (!p.winnerWhatsapp || p.winnerWhatsapp.replace(/\D/g, '') === '') return null;
  return whatsappLink(p.winnerWhatsapp, paymentMessage({ ...p, link }, formatMoney, typeof window === 'undefined' ? undefined : window.location.origin));
}

/** A chat with the winner, no message. */
export function whatsappChatHref(whatsapp: string | null): string | null {
  const digits = whatsapp?.replace(/\D/g, '') ?? '';
  return digits ? `https://wa.me/${digits}` : null;
}
