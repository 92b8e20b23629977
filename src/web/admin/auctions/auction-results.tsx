import { Box, Stack, VisuallyHidden } from '@mantine/core';
import { useTranslation } from '../../i18n';
import { AuctionCards, AuctionCardsSkeleton } from './auction-cards';
import { AuctionPagination } from './auction-pagination';
import { AuctionEmptyState, AuctionLoadError } from './auction-states';
import { AuctionTable, AuctionTableSkeleton } from './auction-table';
import type { AuctionPage } from './use-auction-page';
import { useDeleteAuctionFlow } from './use-delete-auction-flow';
import { type AuctionViewState, listFilterFor } from './view-state';

interface AuctionResultsProps {
  list: AuctionPage;
  state: AuctionViewState;
  isMobile: boolean;
  onEdit: (auctionId: string) => void;
  onStep: (delta: number) => void;
  onPageSize: (pageSize: number) => void;
  onClearSearch: () => void;
  onShowAll: () => void;
}

/** The list part of the panel: loading, error, empty, then the rows (table or cards) and the pager. */
export function AuctionResults({ list, state, isMobile, onEdit, onStep, onPageSize, onClearSearch, onShowAll }: AuctionResultsProps) {
  const { t } = useTranslation();
  const { requestDelete, deletingIds } = useDeleteAuctionFlow();
  const { data } = list;

  if (list.isFirstLoad) {
    return (
      <Box aria-busy="true">
        <VisuallyHidden>{t('common.loading')}</VisuallyHidden>
        {isMobile ? <AuctionCardsSkeleton /> : <AuctionTableSkeleton />}
      </Box>
    );
  }
  if (!data) return <AuctionLoadError error={list.error} onRetry={list.retry} isRetrying={list.isRetrying} />;

  const isEmpty = data.items.length === 0 && !list.isPageLoading;
  const ListView = isMobile ? AuctionCards : AuctionTable;

  return (
    <Stack gap="md">
      {list.error ? <AuctionLoadError error={list.error} onRetry={list.retry} isRetrying={list.isRetrying} /> : null}
      {isEmpty ? (
        <AuctionEmptyState filter={listFilterFor(state.view)} search={state.search} onClearSearch={onClearSearch} onShowAll={onShowAll} />
      ) : (
        <Box
          aria-busy={list.isPageLoading}
          style={{ opacity: list.isPageLoading ? 0.55 : 1, transition: 'opacity 120ms ease', pointerEvents: list.isPageLoading ? 'none' : undefined }}
        >
          <ListView
            items={data.items}
            onEdit={onEdit}
            onDelete={requestDelete}
            deletingIds={deletingIds}
            isSold={state.view === 'pending' || state.view === 'paid'}
          />
        </Box>
      )}
      {data.total > 0 && (
        <AuctionPagination
          page={Math.min(state.page, list.pages)}
          pages={list.pages}
          pageSize={state.pageSize}
          total={data.total}
          isLoading={list.isPageLoading}
          onStep={onStep}
          onPageSize={onPageSize}
        />
      )}
    </Stack>
  );
}
