import { Card, DataList, Stack, Text, Title } from '@mantine/core';
import type { PublicAuction } from '../../../domain/auctions.js';
import { useTranslation } from '../../i18n';

/** Description, condition, marca, envío, category and the seller's business, as SPEC §3 names them. */
export function AuctionDetails({ auction }: { auction: PublicAuction }) {
  const { t } = useTranslation();
  const rows = [
    { label: t('bidding.details.condition'), value: auction.condicion },
    { label: t('bidding.details.brand'), value: auction.marca },
    { label: t('bidding.details.shipping'), value: auction.envio },
    { label: t('bidding.details.category'), value: auction.categoryName },
    { label: t('bidding.details.seller'), value: auction.companyName },
  ].filter((row): row is { label: string; value: string } => Boolean(row.value));

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="auction-details-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="auction-details-title">
          {t('bidding.details.title')}
        </Title>
        {rows.length > 0 && (
          <DataList labelWidth="7.5rem" gap="xs" data-testid="auction-facts">
            {rows.map((row) => (
              <DataList.Item key={row.label}>
                <DataList.ItemLabel c="dimmed">{row.label}</DataList.ItemLabel>
                <DataList.ItemValue fw={500}>{row.value}</DataList.ItemValue>
              </DataList.Item>
            ))}
          </DataList>
        )}
        {auction.description && (
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              {t('bidding.details.description')}
            </Text>
            <Text style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{auction.description}</Text>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
