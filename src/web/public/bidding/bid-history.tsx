import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { memo } from 'react';
import type { BidView } from '../../../domain/bidding.js';
import { formatMoney } from '../../../domain/money.js';
import { flattenHistory } from '../../api/bid-cache';
import type { useBidHistory } from '../../api/bids';
import { BoltIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import { relativeAge } from '../../lib/countdown';
import { formatDate } from '../../lib/dates';
import classes from './bidding.module.css';
import { useServerNow } from './use-server-clock';

/** Relative times ('hace 3 min') refresh every few seconds, not every second. */
const AGE_STEP_MS = 5000;

interface BidHistoryProps {
  history: ReturnType<typeof useBidHistory>;
  myTag: string | null;
  offset: number;
  /** Over (or past its end time): an empty history says it ended without bids instead of inviting the first. */
  isEnded: boolean;
}

/** The public history: masked names, 'Tú' for the viewer's own lines, automatic bids marked, 'Ver más' pages back. */
export const BidHistory = memo(function BidHistory({ history, myTag, offset, isEnded }: BidHistoryProps) {
  const { t } = useTranslation();
  const items = flattenHistory(history.data);
  const total = history.data?.pages[0]?.total ?? 0;

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="bid-history-title" data-testid="bid-history">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline">
          <Title order={2} size="h4" id="bid-history-title">
            {t('bidding.history.title')}
          </Title>
          {total > 0 && (
            <Text size="sm" c="dimmed" data-testid="history-total">
              {t('bidding.price.bids', { count: total })}
            </Text>
          )}
        </Group>
        {history.isPending ? (
          <Stack gap="xs" aria-hidden="true">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={40} radius="sm" />
            ))}
          </Stack>
        ) : history.isError && !history.data ? (
          <Alert color="red" variant="light" role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{t('bidding.history.loadFailed')}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void history.refetch()}>
                {t('common.retry')}
              </Button>
            </Stack>
          </Alert>
        ) : items.length === 0 ? (
          <Text c="dimmed" size="sm" data-testid="history-empty">
            {t(isEnded ? 'bidding.history.emptyEnded' : 'bidding.history.empty')}
          </Text>
        ) : (
          <HistoryLines items={items} myTag={myTag} offset={offset} />
        )}
        {history.hasNextPage && (
          <Button variant="subtle" onClick={() => void history.fetchNextPage()} loading={history.isFetchingNextPage} data-testid="history-more">
            {t('bidding.history.loadMore')}
          </Button>
        )}
      </Stack>
    </Card>
  );
});

function HistoryLines({ items, myTag, offset }: { items: BidView[]; myTag: string | null; offset: number }) {
  const { t } = useTranslation();
  const now = useServerNow(offset, AGE_STEP_MS);
  return (
    <Stack component="ol" gap={0} m={0} p={0} style={{ listStyle: 'none' }} aria-live="polite" aria-relevant="additions">
      {items.map((bid, i) => {
        const isMine = myTag !== null && bid.bidderTag === myTag;
        const age = relativeAge(bid.createdAt, now);
        const ageText =
          age.unit === 'date'
            ? formatDate(bid.createdAt)
            : age.unit === 'justNow'
              ? t('bidding.history.justNow')
              : t(`bidding.history.${age.unit}Ago`, { count: age.count });
        return (
          <Group
            component="li"
            key={bid.seq}
            justify="space-between"
            wrap="nowrap"
            px="xs"
            py={8}
            className={classes.historyLine}
            data-mine={isMine || undefined}
            data-testid="bid-line"
            data-seq={bid.seq}
            style={{ borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-gray-2)' }}
          >
            <Stack gap={0} miw={0}>
              <Group gap={6} wrap="wrap">
                <Text fw={600} size="sm" data-testid="bid-bidder">
                  {isMine ? t('bidding.history.you') : bid.bidderName}
                </Text>
                {bid.isAutomatic && (
                  <Badge size="xs" variant="light" color="gray" tt="none" leftSection={<BoltIcon size={10} />} title={t('bidding.history.automaticHint')}>
                    {t('bidding.history.automatic')}
                  </Badge>
                )}
                {i === 0 && (
                  <Badge size="xs" variant="light" color="green" tt="none">
                    {t('bidding.history.leading')}
                  </Badge>
                )}
              </Group>
              <Text
                size="xs"
                c="dimmed"
                component="time"
                dateTime={new Date(bid.createdAt).toISOString()}
                title={formatDate(bid.createdAt, 'D [de] MMMM [de] YYYY, HH:mm:ss')}
              >
                {ageText}
              </Text>
            </Stack>
            <Text fw={700} size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="bid-amount">
              {formatMoney(bid.amount)}
            </Text>
          </Group>
        );
      })}
    </Stack>
  );
}
