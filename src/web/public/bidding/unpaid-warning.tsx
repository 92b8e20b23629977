import { Alert, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { MyUnpaidAnswer } from '../../../domain/unpaid.js';
import { api } from '../../api/client';
import { AlertIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';

/** The cache key of GET /api/me/unpaid for one auction (use-bidding.ts keeps its `blocked` current). */
export const myUnpaidKey = (auctionId: string) => ['me', 'unpaid', auctionId] as const;

/** GET /api/me/unpaid?auctionId=: whether the signed-in buyer owes this auction's company, or is blocked there; asked only when signed in. */
export function useMyUnpaid(auctionId: string, enabled: boolean) {
  return useQuery({
    queryKey: myUnpaidKey(auctionId),
    queryFn: ({ signal }) => api.get<MyUnpaidAnswer>(`/api/me/unpaid?auctionId=${encodeURIComponent(auctionId)}`, signal),
    enabled,
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * Before a buyer bids: a yellow notice when they owe this auction's company a bill past its
 * deadline (and how many strikes of the limit), or that they are blocked, for unpaid bills or by the
 * seller's moderators (the bid form is gone then: bid-panel.tsx). Asked only when signed in;
 * nothing shows while it loads or if the question fails.
 */
export function UnpaidWarning({ auctionId, signedIn }: { auctionId: string; signedIn: boolean }) {
  const { t } = useTranslation();
  const { data } = useMyUnpaid(auctionId, signedIn);
  if (!signedIn || !data) return null;
  if (data.blocked) {
    return (
      <Alert color="red" variant="light" icon={<AlertIcon />} title={t('unpaid.buyer.blockedTitle')} role="status" data-testid="unpaid-blocked">
        {data.strikes > 0 ? t('unpaid.buyer.blocked') : t('unpaid.buyer.blockedByModerator')}
      </Alert>
    );
  }
  if (data.overdue === 0) return null;
  return (
    <Alert color="yellow" variant="light" icon={<AlertIcon />} title={t('unpaid.buyer.warningTitle')} role="status" data-testid="unpaid-warning">
      <Stack gap={4}>
        <Text size="sm">{t('unpaid.buyer.warning')}</Text>
        {data.strikes > 0 && (
          <Text size="xs" c="dimmed">
            {t('unpaid.buyer.strikes', { strikes: data.strikes, limit: data.limit })}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
