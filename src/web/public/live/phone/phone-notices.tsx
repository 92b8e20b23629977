import { useEffect } from 'react';
import { formatMoney } from '../../../../domain/money.js';
import { type TFunction, useTranslation } from '../../../i18n';
import type { LiveNotice } from '../../bidding/use-live-notices';
import { noticeDuration } from './one-tap';
import classes from './phone-show.module.css';

/** A notice on screen; `id` tells a repeated notice (outbid twice) from the one before. */
export interface ShownNotice {
  id: number;
  notice: LiveNotice;
}

export function noticeText(t: TFunction, notice: LiveNotice): string {
  switch (notice.kind) {
    case 'outbid':
      return t('live.phone.notice.outbid', { price: formatMoney(notice.price ?? 0) });
    case 'winning':
      return t('live.phone.notice.winning', { amount: formatMoney(notice.amount) });
    case 'maxRaised':
      return t('bidding.result.maxRaisedMessage', { amount: formatMoney(notice.amount) });
    case 'extended':
      return t('bidding.extended.title');
    case 'won':
      return t('live.phone.notice.won', { price: formatMoney(notice.price) });
    case 'lost':
      return t('live.phone.notice.lost', { price: formatMoney(notice.price) });
    case 'closed':
      return notice.price === null ? t('live.results.unsold') : t('live.results.soldFor', { price: formatMoney(notice.price) });
  }
}

/**
 * Outbid, winning, won, lost: a short line over the video that leaves by itself. The region stays
 * mounted (empty between notices) so screen readers announce each one as it appears.
 */
export function PhoneNotices({ notice, onDone }: { notice: ShownNotice | null; onDone: () => void }) {
  const { t } = useTranslation();
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(onDone, noticeDuration(notice.notice.kind));
    return () => clearTimeout(timer);
  }, [notice, onDone]);
  return (
    <div className={classes.notices} role="status" aria-live="polite" aria-atomic="true" aria-label={t('live.phone.notices')}>
      {notice && (
        <p key={notice.id} className={classes.notice} data-kind={notice.notice.kind} data-testid="phone-notice">
          {noticeText(t, notice.notice)}
        </p>
      )}
    </div>
  );
}
