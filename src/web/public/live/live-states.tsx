import { Alert, Button, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { LoadErrorBoundary } from '../../components/load-error-boundary';
import { useTranslation } from '../../i18n';
import classes from './live-page.module.css';

const NotFoundCard = lazy(() => import('./live-not-found').then((m) => ({ default: m.LiveNotFoundCard })));

/** The page's shape while the session loads. */
export function LiveSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" role="status" aria-live="polite" data-testid="live-loading">
      <VisuallyHidden>{t('live.loading')}</VisuallyHidden>
      <Stack gap="xs">
        <Skeleton h={28} w="70%" />
        <Skeleton h={16} w="40%" />
      </Stack>
      <Skeleton className={classes.video} />
      <Skeleton h={180} radius="lg" />
    </Stack>
  );
}

export function LiveLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" role="alert" data-testid="live-load-error">
      <Stack gap="sm" align="flex-start">
        <Text>{message}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

/**
 * 404, or a link whose id cannot be a session's. Its card (Mantine's EmptyState) is fetched only
 * then, so the page's first load carries none of it; if that fetch fails too, the load error
 * offers a reload.
 */
export function LiveNotFound() {
  const { t } = useTranslation();
  return (
    <LoadErrorBoundary fallback={() => <LiveLoadError message={t('live.loadFailed')} onRetry={() => window.location.reload()} />}>
      <Suspense fallback={<LiveSkeleton />}>
        <NotFoundCard />
      </Suspense>
    </LoadErrorBoundary>
  );
}
