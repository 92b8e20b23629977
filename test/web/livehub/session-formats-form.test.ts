import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTO_ADVANCE_SECONDS, DEFAULT_BIDDING_CONFIG, DEFAULT_INCREMENT_BANDS } from '../../../src/domain/live';
import { bandField, bandRowErrors, editValuesFrom, parseEditSession, suggestedBandRows } from '../../../src/web/livehub/session-form';
import { session } from '../../support/live-hub-fixtures';

/** 'Editar Sesión''s timer formats, band table and auto-advance, as the form checks and sends them. */
const base = editValuesFrom(session());
const stored = DEFAULT_BIDDING_CONFIG;

describe('seeding the form', () => {
  it('starts from the session, offering the suggested table while the increment is flat', () => {
    expect(base).toMatchObject({
      incrementKind: 'flat',
      timerMode: 'extend',
      counterBidWindowSeconds: 10,
      counterBidResetSeconds: 10,
      isAutoAdvance: false,
      autoAdvanceSeconds: DEFAULT_AUTO_ADVANCE_SECONDS,
    });
    expect(base.bands).toEqual(suggestedBandRows());
  });

  it('reads a session that has a band table, Contrapuja and auto-advance', () => {
    const values = editValuesFrom(
      session({
        biddingConfig: {
          ...DEFAULT_BIDDING_CONFIG,
          timerMode: 'counterBid',
          counterBidWindowSeconds: 15,
          counterBidResetSeconds: 5,
          incrementBands: [
            { from: 0, increment: 10 },
            { from: 1000, increment: 100 },
          ],
          autoAdvanceSeconds: 8,
        },
      }),
    );
    expect(values).toMatchObject({ incrementKind: 'bands', timerMode: 'counterBid', counterBidWindowSeconds: 15, isAutoAdvance: true, autoAdvanceSeconds: 8 });
    expect(values.bands).toEqual([
      { from: 0, increment: 10 },
      { from: 1000, increment: 100 },
    ]);
  });
});

describe('sending the formats', () => {
  it('sends Contrapuja with W and R, the band table and the auto-advance seconds', () => {
    const parsed = parseEditSession(
      {
        ...base,
        timerMode: 'counterBid',
        counterBidWindowSeconds: '15',
        counterBidResetSeconds: 5,
        incrementKind: 'bands',
        isAutoAdvance: true,
        autoAdvanceSeconds: '12',
      },
      stored,
    );
    expect(parsed.ok && parsed.value.biddingConfig).toMatchObject({
      timerMode: 'counterBid',
      counterBidWindowSeconds: 15,
      counterBidResetSeconds: 5,
      incrementBands: [...DEFAULT_INCREMENT_BANDS],
      autoAdvanceSeconds: 12,
    });
  });

  it('sends no table for a flat increment, and no W or R outside Contrapuja', () => {
    const parsed = parseEditSession({ ...base, timerMode: 'suddenDeath', counterBidWindowSeconds: 'abc' }, stored);
    expect(parsed.ok).toBe(true);
    const config = parsed.ok ? parsed.value.biddingConfig : null;
    expect(config).toMatchObject({ timerMode: 'suddenDeath', incrementBands: null, autoAdvanceSeconds: null });
    expect(config).not.toHaveProperty('counterBidWindowSeconds');
  });

  it('a hidden field that was left wrong does not block the save, and the form keeps it', () => {
    const values = { ...base, incrementKind: 'bands' as const, minIncrement: '-5', timerMode: 'counterBid' as const, antiSnipeSeconds: '999' };
    const parsed = parseEditSession(values, stored);
    expect(parsed.ok && parsed.value.biddingConfig).toMatchObject({ minIncrement: stored.minIncrement, antiSnipeSeconds: stored.antiSnipeSeconds });
    expect(values.minIncrement).toBe('-5');
  });

  it('refuses W, R and the auto-advance seconds out of range, each on its field', () => {
    const parsed = parseEditSession({ ...base, timerMode: 'counterBid', counterBidWindowSeconds: 0, counterBidResetSeconds: '301' }, stored);
    expect(parsed).toEqual({
      ok: false,
      errors: { 'biddingConfig.counterBidWindowSeconds': 'counterBidInvalid', 'biddingConfig.counterBidResetSeconds': 'counterBidInvalid' },
    });
    expect(parseEditSession({ ...base, isAutoAdvance: true, autoAdvanceSeconds: 2 }, stored)).toEqual({
      ok: false,
      errors: { 'biddingConfig.autoAdvanceSeconds': 'autoAdvanceInvalid' },
    });
  });
});

describe('the band table’s rows', () => {
  const rows = suggestedBandRows();

  it('accepts the suggested table', () => {
    expect(bandRowErrors(rows)).toEqual({});
  });

  it('says each error on its own row and field', () => {
    const bad = rows.map((row) => ({ ...row }));
    bad[2] = { from: 80, increment: 20 }; // below the row before it (100)
    bad[3] = { from: '1000.5', increment: '0' };
    expect(bandRowErrors(bad)).toEqual({
      [bandField(2, 'from')]: 'bandsNotAscending',
      [bandField(3, 'from')]: 'bandsInvalid',
      [bandField(3, 'increment')]: 'incrementInvalid',
    });
  });

  it('refuses a repeated from, and a blank new row', () => {
    expect(bandRowErrors([...rows, { from: 10000, increment: 300 }])).toEqual({ [bandField(6, 'from')]: 'bandsNotAscending' });
    expect(bandRowErrors([...rows, { from: '', increment: '' }])).toEqual({
      [bandField(6, 'from')]: 'bandsInvalid',
      [bandField(6, 'increment')]: 'incrementInvalid',
    });
  });

  it('keeps the first row at $0', () => {
    expect(bandRowErrors([{ from: 50, increment: 5 }])).toEqual({ [bandField(0, 'from')]: 'bandsFirstFromZero' });
  });

  it('refuses the save with the rows’ errors, not the table’s, and keeps what was typed', () => {
    const typed = rows.map((row) => ({ ...row }));
    typed[1] = { from: '50', increment: '10' };
    typed[2] = { from: '40', increment: '20' };
    const values = { ...base, incrementKind: 'bands' as const, bands: typed };
    const parsed = parseEditSession(values, stored);
    expect(parsed).toEqual({ ok: false, errors: { [bandField(2, 'from')]: 'bandsNotAscending' } });
    expect(values.bands[2]).toEqual({ from: '40', increment: '20' });
  });
});
