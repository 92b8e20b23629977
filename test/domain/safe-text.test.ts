import { describe, expect, it } from 'vitest';
import { ZAuctionInput } from '../../src/domain/auctions.js';
import { ZCategoryInput } from '../../src/domain/categories.js';
import { ZShippingInput } from '../../src/domain/payments.js';
import { isSafeText, zText } from '../../src/domain/text.js';

describe('safe text', () => {
  it('refuses NUL and lone surrogates, keeps emoji, accents and ñ', () => {
    for (const bad of ['\u0000', 'a\u0000b', '\ud800', 'x\ud83dy', '\udc00', '\udc00\ud800']) expect(isSafeText(bad), JSON.stringify(bad)).toBe(false);
    for (const good of ['', 'Relojería', 'Ñandú 🕰️', '👍🏽 ok', 'línea\nnueva\ttab']) expect(isSafeText(good), good).toBe(true);
  });

  it('reports textInvalid first, before the field’s own checks', () => {
    const result = zText({ error: 'nameRequired' }).trim().min(1, { error: 'nameRequired' }).safeParse('\u0000');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['textInvalid']);
  });

  it('is what the shared schemas use, so the forms refuse it too', () => {
    expect(ZCategoryInput.safeParse({ name: 'Reloj\ud800' }).error?.issues[0]?.message).toBe('textInvalid');
    expect(ZShippingInput.safeParse({ shippingCarrier: 'DHL\u0000' }).error?.issues[0]?.message).toBe('textInvalid');
    const auction = ZAuctionInput.safeParse({ name: 'Reloj', description: 'ok\udc00', categoryId: crypto.randomUUID(), startingPrice: 1 });
    expect(auction.error?.issues).toEqual([expect.objectContaining({ path: ['description'], message: 'textInvalid' })]);
  });
});
