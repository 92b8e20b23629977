import { describe, expect, it } from 'vitest';
import { DEFAULT_BIDDING_CONFIG } from '../../../src/domain/live';
import {
  canSubmitQuickAuction,
  INITIAL_QUICK_VALUES,
  parseQuickAuction,
  presetToValue,
  RESET_QUICK_VALUES,
  valueToPreset,
} from '../../../src/web/livehub/quick-auction-form';
import {
  canCreateSession,
  canSaveSession,
  defaultCustomSeconds,
  EMPTY_CREATE_VALUES,
  editValuesFrom,
  parseCreateSession,
  parseCustomSeconds,
  parseEditSession,
  presetScheduledAt,
  SCHEDULE_PRESETS_MINUTES,
  slugPreview,
  toNumber,
} from '../../../src/web/livehub/session-form';
import { session } from '../../support/live-hub-fixtures';

const AT = Date.UTC(2030, 0, 2, 18); // a Wednesday in Mexico City

describe("'Crear Sesión' rules", () => {
  it("enables 'Crear' only with a title (not just spaces) and a date", () => {
    expect(canCreateSession({ title: '', scheduledAt: AT })).toBe(false);
    expect(canCreateSession({ title: '   ', scheduledAt: AT })).toBe(false);
    expect(canCreateSession({ title: 'Relojes', scheduledAt: null })).toBe(false);
    expect(canCreateSession({ title: 'Relojes', scheduledAt: AT })).toBe(true);
  });

  it('previews the slug with SPEC fallbacks: the input, then the title, then the weekday', () => {
    expect(slugPreview({ ...EMPTY_CREATE_VALUES, sellerSlug: '  Tienda de Ñoño!! ', title: 'x', scheduledAt: AT })).toBe('tienda-de-nono');
    expect(slugPreview({ ...EMPTY_CREATE_VALUES, sellerSlug: '!!!', title: 'Relojes Finos', scheduledAt: AT })).toBe('relojes-finos');
    expect(slugPreview({ ...EMPTY_CREATE_VALUES, sellerSlug: '', title: '¿?', scheduledAt: AT })).toBe('miercoles');
    expect(slugPreview(EMPTY_CREATE_VALUES)).toBe('');
  });

  it('trims the title, stores an empty WhatsApp link as null and leaves an empty slug out', () => {
    const parsed = parseCreateSession({ title: '  Relojes  ', scheduledAt: AT, sellerSlug: '  ', whatsappLink: '   ' });
    expect(parsed).toEqual({ ok: true, value: expect.objectContaining({ title: 'Relojes', scheduledAt: AT, sellerSlug: null, whatsappLink: null }) });
  });

  it('stops on a WhatsApp link outside the three hosts, with the whatsappInvalid code', () => {
    for (const link of ['https://example.com/x', 'http://wa.me/5215555', 'https://wa.me.evil.com/x', 'wa.me/123']) {
      const parsed = parseCreateSession({ title: 'Relojes', scheduledAt: AT, sellerSlug: '', whatsappLink: link });
      expect(parsed, link).toEqual({ ok: false, errors: { whatsappLink: 'whatsappInvalid' } });
    }
    for (const link of ['https://wa.me/5215555555555', 'https://chat.whatsapp.com/AbC', 'https://api.whatsapp.com/send?phone=52']) {
      expect(parseCreateSession({ title: 'Relojes', scheduledAt: AT, sellerSlug: '', whatsappLink: link }).ok, link).toBe(true);
    }
  });
});

describe("'Editar Sesión' rules", () => {
  const base = editValuesFrom(session());

  it('seeds from the session and saves every field', () => {
    expect(base).toMatchObject({ title: 'Relojes del viernes', whatsappLink: '', minIncrement: 20, antiSnipeSeconds: 10, timerSecondsDefault: 60 });
    const parsed = parseEditSession({ ...base, minIncrement: '50', timerSecondsDefault: 90 });
    expect(parsed).toEqual({
      ok: true,
      value: expect.objectContaining({
        title: 'Relojes del viernes',
        whatsappLink: null,
        biddingConfig: {
          minIncrement: 50,
          antiSnipeSeconds: 10,
          timerSecondsDefault: 90,
          timerMode: 'extend',
          incrementBands: null,
          autoAdvanceSeconds: null,
        },
      }),
    });
  });

  it('ignores a save with a blank title or date', () => {
    expect(canSaveSession({ title: ' ', scheduledAt: AT })).toBe(false);
    expect(canSaveSession({ title: 'a', scheduledAt: null })).toBe(false);
    expect(parseEditSession({ ...base, scheduledAt: null })).toEqual({ ok: false, errors: { scheduledAt: 'scheduledAtRequired' } });
  });

  it('names the bidding field that is wrong, by its nested path', () => {
    expect(parseEditSession({ ...base, minIncrement: '' })).toEqual({ ok: false, errors: { 'biddingConfig.minIncrement': 'incrementInvalid' } });
    expect(parseEditSession({ ...base, antiSnipeSeconds: 301 })).toEqual({ ok: false, errors: { 'biddingConfig.antiSnipeSeconds': 'antiSnipeInvalid' } });
    expect(parseEditSession({ ...base, timerSecondsDefault: 62 })).toEqual({ ok: false, errors: { 'biddingConfig.timerSecondsDefault': 'timerStep' } });
  });
});

describe('the custom timer input', () => {
  it('accepts integers of at least 5 in steps of 5', () => {
    expect(parseCustomSeconds('5')).toEqual({ ok: true, value: 5 });
    expect(parseCustomSeconds(' 45 ')).toEqual({ ok: true, value: 45 });
  });

  it('explains each refusal with its own code', () => {
    expect(parseCustomSeconds('')).toEqual({ ok: false, errors: { seconds: 'timerRequired' } });
    expect(parseCustomSeconds('0')).toEqual({ ok: false, errors: { seconds: 'timerTooShort' } });
    expect(parseCustomSeconds('-5')).toEqual({ ok: false, errors: { seconds: 'timerTooShort' } });
    expect(parseCustomSeconds('7')).toEqual({ ok: false, errors: { seconds: 'timerStep' } });
    expect(parseCustomSeconds('7.5')).toEqual({ ok: false, errors: { seconds: 'timerInvalid' } });
    expect(parseCustomSeconds('1e2')).toEqual({ ok: false, errors: { seconds: 'timerInvalid' } });
    expect(parseCustomSeconds('abc')).toEqual({ ok: false, errors: { seconds: 'timerInvalid' } });
    expect(parseCustomSeconds('3605')).toEqual({ ok: false, errors: { seconds: 'timerTooLong' } });
  });

  it("starts at the session's default timer, else SPEC's 60", () => {
    expect(defaultCustomSeconds({ ...DEFAULT_BIDDING_CONFIG, timerSecondsDefault: 90 })).toBe('90');
    expect(defaultCustomSeconds(null)).toBe('60');
  });

  it('reads number inputs without guessing', () => {
    expect(toNumber('')).toBeUndefined();
    expect(toNumber(12)).toBe(12);
    expect(toNumber('12')).toBe(12);
    expect(toNumber('12abc')).toBeNaN();
  });
});

describe("'Agregar subasta rápida' rules", () => {
  it('opens on live with the session checkbox on, and resets to active', () => {
    expect(INITIAL_QUICK_VALUES).toMatchObject({ status: 'live', addToSession: true, timerSeconds: null, images: [] });
    expect(RESET_QUICK_VALUES).toMatchObject({ status: 'active', addToSession: true, name: '', startingPrice: '' });
  });

  it('needs a trimmed name and a starting price', () => {
    expect(canSubmitQuickAuction({ name: '  ', startingPrice: 10 })).toBe(false);
    expect(canSubmitQuickAuction({ name: 'Reloj', startingPrice: '' })).toBe(false);
    expect(canSubmitQuickAuction({ name: 'Reloj', startingPrice: 0 })).toBe(true);
  });

  it('sends the schema body and refuses decimals and negatives', () => {
    const ok = parseQuickAuction({ ...INITIAL_QUICK_VALUES, name: ' Reloj ', startingPrice: 300, timerSeconds: 30, images: ['/u/1.jpg'] });
    expect(ok).toEqual({ ok: true, value: { name: 'Reloj', startingPrice: 300, images: ['/u/1.jpg'], timerSeconds: 30, status: 'live', addToSession: true } });
    expect(parseQuickAuction({ ...INITIAL_QUICK_VALUES, name: 'Reloj', startingPrice: 10.5 })).toEqual({
      ok: false,
      errors: { startingPrice: 'priceInteger' },
    });
    expect(parseQuickAuction({ ...INITIAL_QUICK_VALUES, name: 'Reloj', startingPrice: -1 })).toEqual({ ok: false, errors: { startingPrice: 'priceNegative' } });
  });

  it('maps the timer presets both ways', () => {
    expect([null, 15, 30, 60, 120].map((p) => valueToPreset(presetToValue(p as 15)))).toEqual([null, 15, 30, 60, 120]);
    expect(valueToPreset('45')).toBeNull();
  });
});

describe('the scheduled date shortcuts', () => {
  it('give now (to the minute), in 15 min and in 1 h', () => {
    const now = Date.UTC(2030, 0, 2, 18, 7, 42, 500);
    expect(SCHEDULE_PRESETS_MINUTES.map((m) => presetScheduledAt(m, now))).toEqual([
      Date.UTC(2030, 0, 2, 18, 7),
      Date.UTC(2030, 0, 2, 18, 22),
      Date.UTC(2030, 0, 2, 19, 7),
    ]);
  });
});
