import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { LiveSessionData } from '../../api/live';
import { useShowSummary } from '../../api/show-summary';
import { LoadErrorBoundary, LoadFailed } from '../../components/load-error-boundary';
import { useTranslation } from '../../i18n';
import { SummaryBuyers } from './summary-buyers';
import { isEmptySummary } from './summary-format';
import { SummaryStats } from './summary-stats';

/** The charts bring recharts: loaded when the summary is first shown, not with the Hub. */
const SummaryCharts = lazy(() => import('./summary-charts'));

/**
 * 'Resumen del show' for the loaded session: its figures, the viewers and price charts, and the
 * table per buyer with its CSV. While the show is live it refetches on its own, and whenever the
 * session changes (a lot opens, sells or closes: the room's events bump its version).
 */
export function SummaryPanel({ detail }: { detail: LiveSessionData }) {
  const { t } = useTranslation();
  const isLive = detail.session.status === 'live';
  const query = useShowSummary(detail.session.id, { isLive, version: detail.session.version });

  if (query.isPending) {
    return (
      <Group gap="xs" role="status">
        <Loader size="sm" />
        <Text size="sm">{t('showSummary.loading')}</Text>
      </Group>
    );
  }
  if (query.isError && !query.data) {
    return (
      <Alert color="red" variant="light">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('showSummary.loadFailed')}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()} loading={query.isFetching}>
            {t('showSummary.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  const summary = query.data;
  if (!summary) return null;
  return (
    <Stack gap="md">
      {isLive && (
        <Text size="xs" c="dimmed">
          {t('showSummary.liveNote')}
        </Text>
      )}
      {isEmptySummary(summary) && (
        <Alert color="gray" variant="light">
          {t('showSummary.empty')}
        </Alert>
      )}
      <SummaryStats totals={summary.totals} />
      {/* A chart that fails to load or to draw leaves the rest of the Hub standing. */}
      <LoadErrorBoundary fallback={(retry) => <LoadFailed message={t('showSummary.chartsFailed')} onRetry={retry} />}>
        <Suspense
          fallback={
            <Group justify="center" p="md">
              <Loader size="sm" />
            </Group>
          }
        >
          <SummaryCharts summary={summary} />
        </Suspense>
      </LoadErrorBoundary>
      <SummaryBuyers summary={summary} />
    </Stack>
  );
}
