import { Skeleton, Table, Text } from '@mantine/core';
import type { AuctionListItem } from '../../../domain/auctions.js';
import { AuctionStatusBadge } from '../../components/auction-status-badge';
import { useTranslation } from '../../i18n';
import { AuctionEndDate, AuctionName, AuctionPrice, AuctionRowActions, AuctionThumbnail } from './auction-cells';

export interface AuctionListViewProps {
  items: AuctionListItem[];
  onEdit: (auctionId: string) => void;
  onDelete: (item: AuctionListItem) => void;
  deletingIds: ReadonlySet<string>;
  /** Every row is sold ('Pendientes', 'Pagadas'): the price column is the final price. */
  isSold?: boolean;
}

const COLUMNS = ['image', 'name', 'company', 'category', 'condition', 'status', 'endDate', 'price', 'actions'] as const;
/** Below this width the table scrolls sideways inside its own box instead of squeezing. */
const TABLE_MIN_WIDTH = 860;

function Head({ isSold = false }: { isSold?: boolean }) {
  const { t } = useTranslation();
  return (
    <Table.Thead>
      <Table.Tr>
        {COLUMNS.map((column) => (
          <Table.Th key={column}>{t(column === 'price' && isSold ? 'auctions.table.finalPrice' : `auctions.table.${column}`)}</Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}

/** SPEC §2's auction table, for screens of 780 px and wider. */
export function AuctionTable({ items, onEdit, onDelete, deletingIds, isSold = false }: AuctionListViewProps) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH} type="native">
      <Table verticalSpacing="sm" horizontalSpacing={8} highlightOnHover aria-label={t('auctions.table.caption')}>
        <Head isSold={isSold} />
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id} data-auction-id={item.id}>
              <Table.Td w={64}>
                <AuctionThumbnail url={item.thumbnailUrl} />
              </Table.Td>
              <Table.Td miw={160}>
                <AuctionName item={item} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" title={item.companyName ? item.companyId : undefined}>
                  {item.companyName ?? item.companyId}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{item.categoryName ?? '—'}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{item.condicion ?? '—'}</Text>
              </Table.Td>
              <Table.Td>
                <AuctionStatusBadge status={item.status} />
              </Table.Td>
              <Table.Td>
                <AuctionEndDate endTime={item.endTime} />
              </Table.Td>
              <Table.Td>
                <AuctionPrice item={item} isFinal={isSold} />
              </Table.Td>
              <Table.Td>
                <AuctionRowActions item={item} onEdit={onEdit} onDelete={onDelete} isDeleting={deletingIds.has(item.id)} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** First load: the table's shape, so nothing jumps when the rows arrive. */
export function AuctionTableSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH} type="native">
      <Table verticalSpacing="sm" horizontalSpacing={8} aria-hidden="true">
        <Head />
        <Table.Tbody>
          {Array.from({ length: rows }, (_, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
            <Table.Tr key={row}>
              <Table.Td w={64}>
                <Skeleton w={48} h={48} radius="sm" />
              </Table.Td>
              {COLUMNS.slice(1).map((column) => (
                <Table.Td key={column}>
                  <Skeleton h={12} w={column === 'name' ? '80%' : 64} radius="xl" />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
