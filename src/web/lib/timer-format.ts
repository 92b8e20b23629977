import type { AuctionLiveState } from '../../domain/bidding.js';
import type { TranslationKey, TranslationValues } from '../i18n';

/**
 * What a buyer reads of a lot's timer format before bidding: 'Muerte súbita', 'Contrapuja 10 s'
 * (R, where a late leading bid sets the clock) or 'Extender 10 s' (W, what such a bid adds), with a
 * sentence that says what a late bid does. Read from the engine's state, which carries the lot's
 * own format or its session's.
 */
export type TimerFormatView = { mode: 'suddenDeath' } | { mode: 'counterBid'; window: number; reset: number } | { mode: 'extend'; window: number };

export function timerFormatOf(state: Pick<AuctionLiveState, 'timerMode' | 'antiSnipeSeconds' | 'counterBidResetSeconds'>): TimerFormatView {
  const window = Math.max(0, state.antiSnipeSeconds);
  // A window of 0 moves no clock, whatever the mode is called: to a buyer that is sudden death.
  if (state.timerMode === 'suddenDeath' || window === 0) return { mode: 'suddenDeath' };
  if (state.timerMode === 'counterBid') return { mode: 'counterBid', window, reset: Math.max(1, state.counterBidResetSeconds) };
  return { mode: 'extend', window };
}

/** The short label's catalogue key and values ('bidding.timerFormat.*'). */
export function timerFormatLabel(format: TimerFormatView): { key: TranslationKey; values?: TranslationValues } {
  if (format.mode === 'suddenDeath') return { key: 'bidding.timerFormat.suddenDeath' };
  if (format.mode === 'counterBid') return { key: 'bidding.timerFormat.counterBid', values: { seconds: format.reset } };
  return { key: 'bidding.timerFormat.extend', values: { seconds: format.window } };
}

/** The sentence that explains the format to a buyer. */
export function timerFormatHint(format: TimerFormatView): { key: TranslationKey; values?: TranslationValues } {
  if (format.mode === 'suddenDeath') return { key: 'bidding.timerFormat.suddenDeathHint' };
  if (format.mode === 'counterBid') return { key: 'bidding.timerFormat.counterBidHint', values: { window: format.window, reset: format.reset } };
  return { key: 'bidding.timerFormat.extendHint', values: { window: format.window } };
}
