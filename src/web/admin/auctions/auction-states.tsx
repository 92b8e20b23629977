import { Alert, Button, EmptyState, Stack, Text } from '@mantine/core';
import type { AuctionFilter } from '../../../domain/auction-list.js';
import { AlertIcon, ReceiptIcon } from '../../components/icons';
import { SearchIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import { useErrorText } from '../../lib/use-error-text';

/** Nothing to list: no auctions at all, none for this filter, or none for this search. */
export function AuctionEmptyState({
  filter,
  search,
  onClearSearch,
  onShowAll,
}: {
  filter: AuctionFilter;
  search: string;
  onClearSearch: () => void;
  onShowAll: () => void;
}) {
  const { t } = useTranslation();
  if (search) {
    return (
      <EmptyState
        data-testid="auction-empty"
        py="xl"
        icon={<SearchIcon size={28} />}
        withIndicatorBackground
        title={t('auctions.empty.noResultsTitle', { search })}
        description={t('auctions.empty.noResultsHint')}
      >
        <EmptyState.Actions>
          <Button variant="light" onClick={onClearSearch}>
            {t('auctions.empty.clearSearch')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    );
  }
  if (filter === 'all') {
    return (
      <EmptyState
        data-testid="auction-empty"
        py="xl"
        icon={<ReceiptIcon size={28} />}
        withIndicatorBackground
        title={t('auctions.empty.noneTitle')}
        description={t('auctions.empty.noneHint')}
      />
    );
  }
  const key = filter === 'paid' ? 'noPaid' : 'noPending';
  return (
    <EmptyState
      data-testid="auction-empty"
      py="xl"
      icon={<ReceiptIcon size={28} />}
      withIndicatorBackground
      title={t(`auctions.empty.${key}Title`)}
      description={t(`auctions.empty.${key}Hint`)}
    >
      <EmptyState.Actions>
        <Button variant="light" onClick={onShowAll}>
          {t('auctions.empty.showAll')}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}

export function AuctionLoadError({ error, onRetry, isRetrying }: { error: unknown; onRetry: () => void; isRetrying: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return (
    <Alert color="red" variant="light" icon={<AlertIcon />} title={t('auctions.error.title')}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{errorText(error)}</Text>
        <Button variant="light" color="red" size="xs" onClick={onRetry} loading={isRetrying}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
