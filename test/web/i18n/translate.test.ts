import { describe, expect, it } from 'vitest';
import { addPageStrings, changeLanguage, loadPanelStrings, type TranslationKey, translate } from '../../../src/web/i18n';
import en from '../../../src/web/i18n/en.json';
import es from '../../../src/web/i18n/es-MX.json';
import liveStrings from '../../../src/web/i18n/es-MX.json?section=live';

/** The app's own translator (src/web/i18n/index.ts), on the real catalogues. */
describe('translate', () => {
  it('has the first load’s sections, a page’s once it adds them, and the panel’s once loaded', async () => {
    expect(translate('bidding.form.submit')).toBe(es.bidding.form.submit);
    expect(translate('auctions.status.active')).toBe(es.auctions.status.active);
    // 'auctions' is in the first load only for its statuses.
    expect(translate('auctions.title')).toBe('auctions.title');
    expect(translate('live.title')).toBe('live.title');
    addPageStrings(liveStrings);
    expect(translate('live.title')).toBe(es.live.title);
    expect(translate('livehub.title')).toBe('livehub.title');
    await loadPanelStrings();
    expect(translate('livehub.title')).toBe(es.livehub.title);
    expect(translate('auctions.title')).toBe(es.auctions.title);
    expect(translate('live.title')).toBe(es.live.title);
  });

  it('finds a string by its dotted key and fills its placeholders', () => {
    expect(translate('livehub.lots.order', { order: 3 })).toBe(es.livehub.lots.order.replace('{{order}}', '3'));
    expect(translate('livehub.lots.order')).toBe(es.livehub.lots.order);
    // A placeholder without a value stays as it is, visible, rather than vanishing.
    expect(translate('livehub.lots.order', { other: 1 })).toBe(es.livehub.lots.order);
  });

  it('picks the plural form for `count` by the language’s rules (es-MX: one, many, other)', () => {
    expect(translate('live.viewers', { count: 1 })).toBe('1 espectador');
    expect(translate('live.viewers', { count: 0 })).toBe('0 espectadores');
    expect(translate('live.viewers', { count: 2 })).toBe('2 espectadores');
    expect(translate('live.viewers', { count: 1_000_000 })).toBe('1000000 espectadores');
    // Without a 'many' form, 'other' is used.
    expect(translate('livehub.lots.bids', { count: 1_000_000 })).toBe('1000000 pujas');
    expect(translate('livehub.lots.bids', { count: 1 })).toBe('1 puja');
  });

  it('answers an unknown key with the key itself', () => {
    expect(translate('no.such.key' as TranslationKey)).toBe('no.such.key');
  });

  it('switches to English and back', async () => {
    await changeLanguage('en');
    expect(translate('livehub.title')).toBe(en.livehub.title);
    await changeLanguage('es-MX');
    expect(translate('livehub.title')).toBe(es.livehub.title);
  });
});
