import { Alert, Button, Card, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { LoadErrorBoundary } from '../../components/load-error-boundary';
import { useTranslation } from '../../i18n';
import classes from './auction-page.module.css';

const NotFoundCard = lazy(() => import('./auction-not-found').then((m) => ({ default: m.AuctionNotFoundCard })));

/** The page's shape while the auction loads, so nothing jumps when it arrives. */
export function AuctionSkeleton() {
  const { t } = useTranslation();
  return (
    <div className={classes.layout} role="status" aria-live="polite" data-testid="auction-loading">
      <VisuallyHidden>{t('publicAuction.loading')}</VisuallyHidden>
      <Skeleton className={classes.areaGallery} radius="lg" style={{ aspectRatio: '4 / 3' }} />
      <Stack gap="xs" className={classes.areaSummary}>
        <Skeleton h={20} w={80} radius="xl" />
        <Skeleton h={32} w="80%" />
      </Stack>
      <Card withBorder radius="lg" padding="lg" className={classes.bid}>
        <Stack gap="sm">
          <Skeleton h={16} w={100} />
          <Skeleton h={36} w={180} />
          <Skeleton h={16} w={140} />
          <Skeleton h={48} mt="md" />
        </Stack>
      </Card>
      <Skeleton h={160} radius="lg" className={classes.areaDetails} />
    </div>
  );
}

export function AuctionLoadError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" role="alert">
      <Stack gap="sm" align="flex-start">
        <Text>{t('publicAuction.loadFailed')}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

/**
 * A link that leads to no auction. Its card (Mantine's EmptyState) is fetched only then, so the
 * page's first load carries none of it; if that fetch fails too, the load error offers a reload.
 */
export function AuctionNotFound() {
  return (
    <LoadErrorBoundary fallback={() => <AuctionLoadError onRetry={() => window.location.reload()} />}>
      <Suspense fallback={<AuctionSkeleton />}>
        <NotFoundCard />
      </Suspense>
    </LoadErrorBoundary>
  );
}
