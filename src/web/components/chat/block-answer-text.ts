import type { BlockAnswer } from '../../../domain/chat.js';
import { formatMoney } from '../../../domain/money.js';
import type { TFunction } from '../../i18n';

/**
 * What a moderator reads once a block went through: who was blocked, the lots whose bids were
 * withdrawn with the price each fell back to, the pre-bids removed, and the lots already won that
 * will not be billed while the block lasts. Each part only when it happened.
 */
export function blockAnswerText(answer: Pick<BlockAnswer, 'withdrawn' | 'prebidsRemoved' | 'heldWins'>, name: string, t: TFunction): string {
  const parts = [t('live.chat.actions.blockedDone', { name })];
  if (answer.withdrawn.length > 0) {
    const lots = answer.withdrawn
      .map((lot) =>
        lot.currentPrice === null
          ? t('live.chat.actions.blockLotReset', { name: lot.auctionName, price: formatMoney(lot.startingPrice) })
          : t('live.chat.actions.blockLotPrice', { name: lot.auctionName, price: formatMoney(lot.currentPrice) }),
      )
      .join('; ');
    parts.push(t('live.chat.actions.blockWithdrawn', { count: answer.withdrawn.length, lots }));
  }
  if (answer.prebidsRemoved > 0) parts.push(t('live.chat.actions.blockPrebids', { count: answer.prebidsRemoved }));
  if (answer.heldWins.length > 0) {
    const lots = answer.heldWins.map((win) => win.auctionName).join(', ');
    parts.push(t('live.chat.actions.blockHeldWins', { count: answer.heldWins.length, lots }));
  }
  return parts.join(' ');
}
