import { describe, expect, it } from 'vitest';
import { translate } from '../../../src/web/i18n';
import { timerFormatHint, timerFormatLabel, timerFormatOf } from '../../../src/web/lib/timer-format';

/** What a buyer reads of a lot's timer format, from the engine's state. */
const read = (timerMode: 'counterBid' | 'suddenDeath' | 'extend', antiSnipeSeconds: number, counterBidResetSeconds: number) => {
  const format = timerFormatOf({ timerMode, antiSnipeSeconds, counterBidResetSeconds });
  const label = timerFormatLabel(format);
  const hint = timerFormatHint(format);
  return { format, label: translate(label.key, label.values), hint: translate(hint.key, hint.values) };
};

describe('the lot’s timer format label', () => {
  it('names Contrapuja by R, the seconds the clock goes back to', () => {
    const { format, label, hint } = read('counterBid', 15, 5);
    expect(format).toEqual({ mode: 'counterBid', window: 15, reset: 5 });
    expect(label).toBe('Contrapuja 5 s');
    expect(hint).toContain('15 s');
    expect(hint).toContain('5 s');
    expect(read('counterBid', 10, 10).label).toBe('Contrapuja 10 s');
  });

  it('names Muerte súbita without seconds', () => {
    const { format, label } = read('suddenDeath', 0, 0);
    expect(format).toEqual({ mode: 'suddenDeath' });
    expect(label).toBe('Muerte súbita');
  });

  it('names Extender by its window W', () => {
    const { label, hint } = read('extend', 10, 10);
    expect(label).toBe('Extender 10 s');
    expect(hint).toContain('10 s');
  });

  it('calls any format whose window is 0 sudden death, since nothing moves its clock', () => {
    expect(read('extend', 0, 0).label).toBe('Muerte súbita');
    expect(read('counterBid', 0, 5).label).toBe('Muerte súbita');
  });

  it('never says the clock goes back to 0 s under Contrapuja', () => {
    expect(read('counterBid', 10, 0).format).toEqual({ mode: 'counterBid', window: 10, reset: 1 });
  });
});
