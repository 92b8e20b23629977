import { Paper, SimpleGrid, Text } from '@mantine/core';
import { formatMoney } from '../../../domain/money.js';
import type { ShowSummaryTotals } from '../../../domain/show-summary.js';
import { useTranslation } from '../../i18n';
import { formatRatio } from './summary-format';

function StatCard({ label, value, hint }: { label: string; value: string; hint?: string | null }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lineClamp={2}>
        {label}
      </Text>
      <Text fw={700} size="lg" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

/** The show's figures as cards: two a row on a phone, more on wider screens. */
export function SummaryStats({ totals }: { totals: ShowSummaryTotals }) {
  const { t } = useTranslation();
  const ratio = formatRatio(totals.saleToStartRatio);
  const count = (n: number) => n.toLocaleString('es-MX');
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
      <StatCard label={t('showSummary.stats.grossSold')} value={formatMoney(totals.grossSold)} />
      <StatCard label={t('showSummary.stats.lotsSold')} value={count(totals.lotsSold)} />
      <StatCard label={t('showSummary.stats.lotsUnsold')} value={count(totals.lotsUnsold)} />
      <StatCard label={t('showSummary.stats.buyers')} value={count(totals.buyers)} />
      <StatCard
        label={t('showSummary.stats.averageSale')}
        value={formatMoney(totals.averageSale)}
        hint={
          totals.lotsSold > 0
            ? `${t('showSummary.stats.averageStart', { amount: formatMoney(totals.averageStartingPrice) })}${ratio ? ` · ${t('showSummary.stats.ratio', { ratio })}` : ''}`
            : null
        }
      />
      <StatCard label={t('showSummary.stats.peakViewers')} value={count(totals.peakViewers)} />
      <StatCard label={t('showSummary.stats.averageViewers')} value={count(totals.averageViewers)} />
      {/* The lots' prices: 'Cobrar el show' adds the shipping to what each buyer pays. */}
      <StatCard label={t('showSummary.stats.paid')} value={formatMoney(totals.paidAmount)} hint={t('showSummary.stats.lotsOnly')} />
      <StatCard label={t('showSummary.stats.unpaid')} value={formatMoney(totals.unpaidAmount)} hint={t('showSummary.stats.lotsOnly')} />
    </SimpleGrid>
  );
}
