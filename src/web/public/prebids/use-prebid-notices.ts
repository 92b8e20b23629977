import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { formatMoney } from '../../../domain/money.js';
import { LOT_TIMER_EVENT, PREBID_RESULT_EVENT } from '../../../domain/realtime.js';
import { prebidKeys } from '../../api/prebids';
import { useSocketEvent } from '../../api/socket';
import { useTranslation } from '../../i18n';

/**
 * Tells the buyer, wherever the page is, what a lot's opening made of their pre-bid ('Tu puja
 * anticipada va ganando en …' / 'Te superaron: …'), and keeps the pre-bid answers current: a show
 * going live makes pre-bids binding, and a lot opening closes it to new ones.
 */
export function usePrebidNotices(): void {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: prebidKeys.all });
  useSocketEvent('sessionStatusUpdate', refresh);
  useSocketEvent(LOT_TIMER_EVENT, refresh);
  useSocketEvent(PREBID_RESULT_EVENT, (event) => {
    if (!event?.auctionId) return;
    refresh();
    const price = formatMoney(event.currentPrice ?? 0);
    if (event.outcome === 'leading') {
      notifications.show({
        color: 'green',
        title: t('prebids.notice.leadingTitle'),
        message: t('prebids.notice.leading', { name: event.auctionName, price }),
        autoClose: 10_000,
      });
    } else if (event.outcome === 'outbid') {
      notifications.show({
        color: 'orange',
        title: t('prebids.notice.outbidTitle'),
        message: t('prebids.notice.outbid', { name: event.auctionName, price, max: formatMoney(event.maxAmount) }),
        autoClose: 10_000,
      });
    } else {
      notifications.show({
        color: 'red',
        title: t('prebids.notice.refusedTitle'),
        message: t('prebids.notice.refused', { name: event.auctionName, reason: t(`prebids.reason.${event.outcome}`) }),
        autoClose: false,
      });
    }
  });
}
