import { beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../../src/domain/money.js';
import { blockAnswerText } from '../../../src/web/components/chat/block-answer-text';
import { addPageStrings, translate } from '../../../src/web/i18n';
import liveStrings from '../../../src/web/i18n/es-MX.json?section=live';

/** What the moderator reads once a block went through, from the block's answer. */
describe('blockAnswerText', () => {
  beforeAll(() => addPageStrings(liveStrings));

  it('says who was blocked and nothing more when nothing else happened', () => {
    expect(blockAnswerText({ withdrawn: [], prebidsRemoved: 0, heldWins: [] }, 'Trol P.', translate)).toBe('Trol P. quedó bloqueado de tus shows.');
  });

  it('lists the lots whose bids were withdrawn with their new prices, the pre-bids and the wins not billed', () => {
    const text = blockAnswerText(
      {
        withdrawn: [
          { auctionId: 'a', auctionName: 'Reloj Casio', currentPrice: 540, startingPrice: 500 },
          { auctionId: 'b', auctionName: 'Lámpara', currentPrice: null, startingPrice: 300 },
        ],
        prebidsRemoved: 1,
        heldWins: [{ auctionId: 'c', auctionName: 'Bici', amount: 900 }],
      },
      'Trol P.',
      translate,
    );
    expect(text).toBe(
      `Trol P. quedó bloqueado de tus shows. Se retiraron sus pujas en 2 lotes: Reloj Casio, ahora en ${formatMoney(540)}; Lámpara, de vuelta a ${formatMoney(300)} sin pujas. Se quitó 1 puja anticipada. Ya había ganado Bici: no se le cobrará mientras siga bloqueado.`,
    );
  });
});
