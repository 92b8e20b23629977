import { Button, Group, NativeSelect, Text } from '@mantine/core';
import { useId } from 'react';
import { PAGE_SIZES } from '../../../domain/auction-list.js';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n';

interface AuctionPaginationProps {
  page: number;
  pages: number;
  pageSize: number;
  total: number;
  /** True while the next page loads behind the current rows. */
  isLoading: boolean;
  onStep: (delta: number) => void;
  onPageSize: (pageSize: number) => void;
}

/** SPEC §2: Anterior, 'Página X de Y', Siguiente and the 'Por página' selector (SPEC §9: 10/20/50/100). */
export function AuctionPagination({ page, pages, pageSize, total, isLoading, onStep, onPageSize }: AuctionPaginationProps) {
  const { t } = useTranslation();
  const sizeId = useId();
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);

  return (
    <Group component="nav" aria-label={t('auctions.pagination.label')} justify="space-between" gap="sm" wrap="wrap">
      <Group gap="xs" wrap="nowrap">
        <Text component="label" htmlFor={sizeId} size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {t('auctions.pagination.pageSize')}
        </Text>
        <NativeSelect
          id={sizeId}
          size="xs"
          w={76}
          value={String(pageSize)}
          onChange={(event) => onPageSize(Number(event.currentTarget.value))}
          data={PAGE_SIZES.map(String)}
        />
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {t('auctions.pagination.range', { from: String(from), to: String(to), total: String(total) })}
        </Text>
        {isLoading && <Spinner size="xs" label={t('auctions.table.updating')} />}
      </Group>
      <Group gap="xs" wrap="nowrap">
        <Button variant="default" size="xs" onClick={() => onStep(-1)} disabled={page <= 1}>
          {t('auctions.pagination.previous')}
        </Button>
        <Text size="sm" aria-live="polite" style={{ whiteSpace: 'nowrap' }} data-testid="page-of">
          {t('auctions.pagination.pageOf', { page: String(page), pages: String(pages) })}
        </Text>
        <Button variant="default" size="xs" onClick={() => onStep(1)} disabled={page >= pages}>
          {t('auctions.pagination.next')}
        </Button>
      </Group>
    </Group>
  );
}
