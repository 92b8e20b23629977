import { formatTimer, waitParts } from '../../../domain/live-public.js';
import type { TFunction } from '../../i18n';

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * Time left as every countdown on the public pages reads it: from an hour as every countdown of the
 * product does (`formatTimer`: '4 d 20 h', '5 h 04 min'), and under an hour 'mm:ss'
 * (`under: 'clock'`, the lot over the video) or '4 min 05 s' / '45 s' (`under: 'words'`, the bid
 * panel and the show's start).
 */
export function waitText(t: TFunction, remainingMs: number, under: 'clock' | 'words'): string {
  const wait = waitParts(remainingMs);
  if (wait.unit !== 'minutes' || under === 'clock') return formatTimer(remainingMs);
  return wait.minutes > 0
    ? t('bidding.countdown.minutes', { minutes: String(wait.minutes), seconds: pad2(wait.seconds) })
    : t('bidding.countdown.seconds', { seconds: String(wait.seconds) });
}
