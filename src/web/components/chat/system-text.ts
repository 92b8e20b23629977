import type { ChatMessage } from '../../../domain/chat.js';
import { formatMoney } from '../../../domain/money.js';
import type { TFunction } from '../../i18n';

/** A system line in words, from the catalogue (the server sends the event, not the sentence). */
export function systemText(line: ChatMessage, t: TFunction): string {
  const event = line.system;
  if (!event) return line.text;
  switch (event.event) {
    case 'lotOpened':
      return t('live.chat.system.lotOpened', { name: event.auctionName, price: formatMoney(event.startingPrice) });
    case 'lotSold':
      return t('live.chat.system.lotSold', { winner: event.winnerName, price: formatMoney(event.price) });
    case 'lotUnsold':
      return t('live.chat.system.lotUnsold', { name: event.auctionName });
  }
}
