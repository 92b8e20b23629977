import { Alert, Badge, Box, Button, EmptyState, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { AlertIcon, ReceiptIcon } from '../../components/icons';
import { SearchIcon } from '../../components/panel-icons';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n';
import { useErrorText } from '../../lib/use-error-text';
import { BillingList, type BillingListProps, BillingListSkeleton } from './billing-list';

export interface SectionQuery {
  /** Nothing to show yet. */
  isPending: boolean;
  /** A refresh behind rows already on screen. */
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

interface BillingSectionProps {
  id: string;
  title: string;
  hint: string;
  /** Rows after the search; null while loading. */
  count: number | null;
  query: SectionQuery;
  /** 'No se pudieron cargar los pagos: {{reason}}' or the summary's own message. */
  loadErrorKey: 'payments.errors.load' | 'payments.errors.loadWinners';
  emptyText: string;
  /** The search hides every row (there are some without it). */
  searchMiss: string | null;
  isMobile: boolean;
  skeletonColumns: number;
  /** Filters shown under the title (the paid section's payout filter). */
  toolbar?: ReactNode;
  children: ReactNode;
}

/** One section of the billing workspace: title and count, then skeleton, error with retry, empty state or the rows. */
export function BillingSection({
  id,
  title,
  hint,
  count,
  query,
  loadErrorKey,
  emptyText,
  searchMiss,
  isMobile,
  skeletonColumns,
  toolbar,
  children,
}: BillingSectionProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const titleId = `${id}-title`;
  const error = query.error ? (
    <Alert color="red" variant="light" icon={<AlertIcon />} role="alert">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t(loadErrorKey, { reason: errorText(query.error) })}</Text>
        <Button variant="light" color="red" size="xs" onClick={() => void query.refetch()} loading={query.isFetching}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  ) : null;

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <Box aria-busy="true">
        <VisuallyHidden>{t('common.loading')}</VisuallyHidden>
        <BillingListSkeleton columns={skeletonColumns} isMobile={isMobile} />
      </Box>
    );
  } else if (error || count === null) {
    // A failed load shows its error and 'Reintentar', never rows it could not refresh (stale rows would be billed wrong).
    body = error;
  } else if (searchMiss) {
    body = <EmptyState py="md" icon={<SearchIcon size={24} />} withIndicatorBackground title={searchMiss} />;
  } else if (count === 0) {
    body = <EmptyState py="md" icon={<ReceiptIcon size={24} />} withIndicatorBackground title={emptyText} data-testid={`${id}-empty`} />;
  } else {
    body = children;
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId} data-testid={id}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Stack gap={0}>
          <Group gap="xs">
            <Title order={3} size="h4" id={titleId}>
              {title}
            </Title>
            {count !== null && !error && (
              <Badge variant="light" color="gray" data-testid={`${id}-count`}>
                {count}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        </Stack>
        {query.isFetching && !query.isPending && <Spinner size="xs" type="dots" label={t('auctions.table.updating')} />}
      </Group>
      {toolbar}
      {body}
    </Stack>
  );
}

/** The four sections of the workspace, by their catalogue keys. */
export type BillingSectionKey = 'ready' | 'drafts' | 'pending' | 'paid';

/**
 * One section and its list, named by `section` (id `billing-{section}`, title, hint and empty
 * text from `payments.sections.*` and `payments.empty.*`).
 */
export function BillingListSection<T>({
  section,
  rows,
  query,
  searchMiss,
  isMobile,
  skeletonColumns,
  toolbar,
  emptyText,
  ...list
}: Omit<BillingListProps<T>, 'rows' | 'actionsLabel' | 'label' | 'isMobile'> & {
  section: BillingSectionKey;
  /** Null while loading. */
  rows: T[] | null | undefined;
  query: SectionQuery;
  searchMiss: string | null;
  isMobile: boolean;
  skeletonColumns: number;
  toolbar?: ReactNode;
  /** Instead of the section's own empty text (a filter that matches nothing). */
  emptyText?: string;
}) {
  const { t } = useTranslation();
  const title = t(`payments.sections.${section}`);
  return (
    <BillingSection
      id={`billing-${section}`}
      title={title}
      hint={t(`payments.sections.${section}Hint`)}
      count={rows?.length ?? null}
      query={query}
      loadErrorKey={section === 'ready' ? 'payments.errors.loadWinners' : 'payments.errors.load'}
      emptyText={emptyText ?? t(`payments.empty.${section}`)}
      searchMiss={searchMiss}
      isMobile={isMobile}
      skeletonColumns={skeletonColumns}
      toolbar={toolbar}
    >
      {rows && <BillingList rows={rows} actionsLabel={t('payments.columns.actions')} label={title} isMobile={isMobile} {...list} />}
    </BillingSection>
  );
}
