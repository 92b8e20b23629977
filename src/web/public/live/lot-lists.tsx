import { Badge, Card, Center, Group, Image, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import type { LotView } from '../../../domain/live.js';
import { formatMoney } from '../../../domain/money.js';
import { PhotoIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import { UpcomingPrebid } from '../prebids/prebid-places';
import classes from './live-page.module.css';
import { isSold, type SessionTotals, soldPrice } from './live-view';

function LotThumb({ lot }: { lot: LotView }) {
  const src = lot.auction.thumbnailUrl ?? lot.auction.images[0] ?? null;
  if (!src) {
    return (
      <Center w={56} h={56} c="gray.5" className={classes.lotThumb}>
        <PhotoIcon size={22} />
      </Center>
    );
  }
  return <Image src={src} alt="" w={56} h={56} fit="cover" className={classes.lotThumb} loading="lazy" />;
}

function LotName({ lot }: { lot: LotView }) {
  const { t } = useTranslation();
  return (
    <Stack gap={0} miw={0} flex={1}>
      <Text size="xs" c="dimmed">
        {t('live.current.lotNumber', { order: lot.order })}
      </Text>
      <Text fw={600} size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }} data-testid="lot-name">
        {lot.auction.name}
      </Text>
    </Stack>
  );
}

/** The lots still to come, in order, with their starting price (or the bid standing on one still open). */
export function UpcomingLots({ lots, heading }: { lots: LotView[]; heading: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={headingId} data-testid="upcoming-lots">
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {heading}
        </Title>
        {lots.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('live.upcoming.empty')}
          </Text>
        ) : (
          <Stack component="ol" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
            {lots.map((lot) => {
              const { bidCount, currentPrice, startingPrice } = lot.auction.state;
              return (
                <Stack component="li" key={lot.id} gap={6} py={8} className={classes.lotLine} data-testid="upcoming-lot" data-lot-id={lot.id}>
                  <Group wrap="nowrap" gap="sm">
                    <LotThumb lot={lot} />
                    <LotName lot={lot} />
                    <Text size="sm" c="dimmed" ta="right" maw="40%">
                      {bidCount > 0 && currentPrice !== null
                        ? t('live.upcoming.currentBid', { price: formatMoney(currentPrice) })
                        : t('live.upcoming.startingPrice', { price: formatMoney(startingPrice) })}
                    </Text>
                  </Group>
                  <UpcomingPrebid lot={lot} />
                </Stack>
              );
            })}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/** The lots already decided: 'Vendido' with the final price, or 'Sin venta'; with the totals. */
export function ResultLots({ lots, totals }: { lots: LotView[]; totals: SessionTotals }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={headingId} data-testid="result-lots">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline" gap="xs">
          <Title order={2} size="h4" id={headingId}>
            {t('live.results.heading')}
          </Title>
          {totals.soldCount > 0 && (
            <Text size="sm" fw={600} data-testid="sold-total">
              {t('live.results.total', { total: formatMoney(totals.soldTotal) })}
            </Text>
          )}
        </Group>
        {(totals.soldCount > 0 || totals.unsoldCount > 0) && (
          <Text size="sm" c="dimmed" data-testid="result-counts">
            {[
              totals.soldCount > 0 ? t('live.results.soldCount', { count: totals.soldCount }) : null,
              totals.unsoldCount > 0 ? t('live.results.unsoldCount', { count: totals.unsoldCount }) : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        )}
        {lots.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('live.results.empty')}
          </Text>
        ) : (
          <Stack component="ol" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
            {lots.map((lot) => {
              const sold = isSold(lot.auction.state);
              const price = soldPrice(lot.auction.state);
              return (
                <Group
                  component="li"
                  key={lot.id}
                  wrap="nowrap"
                  gap="sm"
                  py={8}
                  className={classes.lotLine}
                  data-testid="result-lot"
                  data-lot-id={lot.id}
                  data-outcome={sold ? 'sold' : 'unsold'}
                >
                  <LotThumb lot={lot} />
                  <LotName lot={lot} />
                  <Stack gap={2} align="flex-end">
                    {price !== null && (
                      <Text fw={700} size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="sold-price">
                        {formatMoney(price)}
                      </Text>
                    )}
                    <Badge color={sold ? 'green' : 'gray'} variant={sold ? 'filled' : 'light'} tt="none">
                      {sold ? t('live.results.sold') : t('live.results.unsold')}
                    </Badge>
                  </Stack>
                </Group>
              );
            })}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/** The lots that never went on the block (skipped, or left when the show ended): apart from the results, not counted in them. */
export function NotOfferedLots({ lots }: { lots: LotView[] }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={headingId} data-testid="not-offered-lots">
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={2} size="h4" id={headingId}>
            {t('live.notOffered.heading')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('live.notOffered.hint')}
          </Text>
        </Stack>
        <Stack component="ol" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
          {lots.map((lot) => (
            <Group component="li" key={lot.id} wrap="nowrap" gap="sm" py={8} className={classes.lotLine} data-testid="not-offered-lot" data-lot-id={lot.id}>
              <LotThumb lot={lot} />
              <LotName lot={lot} />
            </Group>
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}
