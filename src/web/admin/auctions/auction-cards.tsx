import { Card, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import type { AuctionListItem } from '../../../domain/auctions.js';
import { AuctionStatusBadge } from '../../components/auction-status-badge';
import { useTranslation } from '../../i18n';
import { AuctionCardActions, AuctionEndDate, AuctionName, AuctionPrice, AuctionThumbnail } from './auction-cells';
import type { AuctionListViewProps } from './auction-table';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
    </div>
  );
}

function AuctionCard({
  item,
  onEdit,
  onDelete,
  isDeleting,
  isSold = false,
}: { item: AuctionListItem; isDeleting: boolean } & Omit<AuctionListViewProps, 'items' | 'deletingIds'>) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="sm" component="li" data-auction-id={item.id}>
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <AuctionThumbnail url={item.thumbnailUrl} size={64} />
          <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
            <AuctionName item={item} />
            <Group gap="xs">
              <AuctionStatusBadge status={item.status} />
            </Group>
          </Stack>
        </Group>
        <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs">
          <Field label={t(isSold ? 'auctions.table.finalPrice' : 'auctions.table.price')}>
            <AuctionPrice item={item} isFinal={isSold} />
          </Field>
          <Field label={t('auctions.table.endDate')}>
            <AuctionEndDate endTime={item.endTime} />
          </Field>
          <Field label={t('auctions.table.category')}>{item.categoryName ?? '—'}</Field>
          <Field label={t('auctions.table.condition')}>{item.condicion ?? '—'}</Field>
          <Field label={t('auctions.table.company')}>{item.companyName ?? item.companyId}</Field>
        </SimpleGrid>
        <AuctionCardActions item={item} onEdit={onEdit} onDelete={onDelete} isDeleting={isDeleting} />
      </Stack>
    </Card>
  );
}

/** SPEC §9: under 780 px each auction becomes a card, with every action a full-size button. */
export function AuctionCards({ items, onEdit, onDelete, deletingIds, isSold = false }: AuctionListViewProps) {
  const { t } = useTranslation();
  return (
    <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('auctions.table.caption')}>
      {items.map((item) => (
        <AuctionCard key={item.id} item={item} onEdit={onEdit} onDelete={onDelete} isDeleting={deletingIds.has(item.id)} isSold={isSold} />
      ))}
    </Stack>
  );
}

export function AuctionCardsSkeleton({ cards = 3 }: { cards?: number }) {
  return (
    <Stack gap="sm" aria-hidden="true">
      {Array.from({ length: cards }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cards have no identity
        <Card key={index} withBorder radius="md" padding="sm">
          <Group gap="sm" wrap="nowrap">
            <Skeleton w={64} h={64} radius="sm" />
            <Stack gap={6} style={{ flex: 1 }}>
              <Skeleton h={12} w="70%" radius="xl" />
              <Skeleton h={12} w="40%" radius="xl" />
            </Stack>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
