import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { formatMoney } from '../../../domain/money.js';
import type { ShowSummary } from '../../../domain/show-summary.js';
import { useTranslation } from '../../i18n';
import { clockTime, compactPesos, priceBars, viewerBands } from './summary-format';

/**
 * The summary's two charts (loaded on demand with recharts): viewers over time, shaded by the lot
 * on the block, and each lot's price reached against its starting price.
 */
export default function SummaryCharts({ summary }: { summary: ShowSummary }) {
  const { t } = useTranslation();
  const { viewers, lotBands, prices } = summary.series;
  const bands = viewerBands(viewers, lotBands, summary.serverNow);
  const bars = priceBars(prices);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <Paper withBorder p="sm" radius="md" miw={0}>
        <Stack gap="xs">
          <Title order={4}>{t('showSummary.charts.viewersTitle')}</Title>
          {viewers.length < 2 ? (
            <Text size="sm" c="dimmed">
              {t('showSummary.charts.noViewers')}
            </Text>
          ) : (
            <>
              <AreaChart
                h={220}
                data={viewers}
                dataKey="at"
                series={[{ name: 'viewers', label: t('showSummary.charts.viewersSeries'), color: 'blue.6' }]}
                curveType="linear"
                withDots={false}
                xAxisProps={{ type: 'number', scale: 'time', domain: ['dataMin', 'dataMax'], tickFormatter: clockTime, minTickGap: 24 }}
                yAxisProps={{ allowDecimals: false, width: 36 }}
                tooltipProps={{ labelFormatter: (label) => clockTime(Number(label)) }}
                referenceAreas={bands.map((b) => ({ x1: b.x1, x2: b.x2, color: b.color, fillOpacity: 0.35, ifOverflow: 'hidden' as const }))}
              />
              {bands.length > 0 && (
                <Text size="xs" c="dimmed">
                  {t('showSummary.charts.bandsHint')}
                </Text>
              )}
            </>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="sm" radius="md" miw={0}>
        <Stack gap="xs">
          <Title order={4}>{t('showSummary.charts.pricesTitle')}</Title>
          {bars.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('showSummary.charts.noPrices')}
            </Text>
          ) : (
            <BarChart
              h={220}
              data={bars}
              dataKey="lot"
              withLegend
              valueFormatter={formatMoney}
              yAxisProps={{ width: 56, tickFormatter: compactPesos }}
              tooltipProps={{ labelFormatter: (_label, payload) => String(payload?.[0]?.payload?.name ?? '') }}
              series={[
                { name: 'startingPrice', label: t('showSummary.charts.startingPrice'), color: 'gray.5' },
                { name: 'finalPrice', label: t('showSummary.charts.finalPrice'), color: 'teal.6' },
              ]}
            />
          )}
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}
