import { Button, Card, Group, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { isApiError } from '../../api/client';
import { type StorePage as StoreAnswer, useStorePage } from '../../api/sellers';
import { FollowButton } from '../../components/follow';
import { LoadFailed } from '../../components/page-states';
import { addPageStrings, useTranslation } from '../../i18n';
import storeStrings from '../../i18n/es-MX.json?section=store';
import { PublicLayout } from '../public-layout';
import { AuctionGrid, LiveBanner, PastShow, UpcomingShow } from './show-lists';

// This page's own strings, not in the first load (i18n/parts.ts).
addPageStrings(storeStrings);

/** /tienda/{slug}: a seller's page. Who they are, *Seguir*, the show on now, what comes next, what was, what is open. Phone first. */
export function StorePage({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const store = useStorePage(slug);
  return (
    <PublicLayout size="sm">
      {store.data ? (
        <StoreContent data={store.data} />
      ) : store.isError && isApiError(store.error) && store.error.status === 404 ? (
        <NotFound />
      ) : store.isError ? (
        <LoadFailed title={t('store.loadFailed')} onRetry={() => void store.refetch()} isRetrying={store.isFetching} />
      ) : (
        <StoreSkeleton />
      )}
    </PublicLayout>
  );
}

function StoreContent({ data }: { data: StoreAnswer }) {
  const { t } = useTranslation();
  const { seller } = data;
  const live = data.live[0];
  return (
    <Stack gap="xl" data-testid="store-page" data-seller-id={seller.id}>
      <Stack gap="sm" component="header">
        <Stack gap={2}>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {seller.name}
          </Title>
          {(seller.companyName || seller.city) && (
            <Text c="dimmed" size="sm" data-testid="store-company">
              {[seller.companyName && seller.companyName !== seller.name ? seller.companyName : null, seller.city].filter(Boolean).join(' · ')}
            </Text>
          )}
        </Stack>
        <FollowButton sellerId={seller.id} following={seller.following} followers={seller.followers} size="md" />
      </Stack>

      {live && <LiveBanner show={live} sellerName={seller.name} />}

      <Section id="store-upcoming" title={t('store.upcoming')} empty={data.upcoming.length === 0 ? t('store.upcomingEmpty') : null}>
        <Stack gap="sm">
          {data.upcoming.map((show) => (
            <UpcomingShow key={show.id} show={show} />
          ))}
        </Stack>
      </Section>

      <Section id="store-auctions" title={t('store.auctions')} empty={data.auctions.length === 0 ? t('store.auctionsEmpty') : null}>
        <AuctionGrid auctions={data.auctions} />
      </Section>

      <Section id="store-past" title={t('store.past')} empty={data.past.length === 0 ? t('store.pastEmpty') : null}>
        <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {data.past.map((show) => (
            <PastShow key={show.id} show={show} />
          ))}
        </Stack>
      </Section>
    </Stack>
  );
}

function Section({ id, title, empty, children }: { id: string; title: string; empty: string | null; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id}>
        {title}
      </Title>
      {empty ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        children
      )}
    </Stack>
  );
}

/** An unknown slug: say so kindly and offer the way home. */
function NotFound() {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="store-not-found">
      <Stack gap="sm" align="flex-start">
        <Title order={1} size="h3">
          {t('store.notFoundTitle')}
        </Title>
        <Text size="sm">{t('store.notFoundText')}</Text>
        <Button component="a" href="/">
          {t('store.goHome')}
        </Button>
      </Stack>
    </Card>
  );
}

function StoreSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" role="status" aria-live="polite">
      <VisuallyHidden>{t('store.loading')}</VisuallyHidden>
      <Skeleton h={32} w="60%" />
      <Group>
        <Skeleton h={36} w={110} radius="xl" />
        <Skeleton h={16} w={90} />
      </Group>
      <Skeleton h={160} radius="lg" />
      <Skeleton h={160} radius="lg" />
    </Stack>
  );
}
