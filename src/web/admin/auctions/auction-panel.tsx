import { Card, Group, Stack, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import type { Me } from '../../../domain/api-types.js';
import { usePaymentsRefresh } from '../../api/payments';
import { LazyPart } from '../../components/lazy-part';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n';
import { WindowLoading } from '../lazy-window';
import { useSearchDraft } from '../use-search-draft';
import { AuctionFilterBar } from './auction-filter-bar';
import { AuctionResults } from './auction-results';
import { useAuctionPage } from './use-auction-page';
import { useAuctionShortcuts } from './use-auction-shortcuts';
import { useAuctionViewState } from './use-auction-view-state';
import { pendingViewFor, useClosedAuctionNotices } from './use-closed-auction-notices';

export interface AuctionPanelProps {
  me: Me;
  onEdit: (auctionId: string) => void;
}

// 'Pendientes' and 'Resumen de ganadores' only: the billing code (Zod, the phone rules, dates) is
// not in the panel's first load, which the auctions list needs quickly.
const loadBillingWorkspace = () => import('../payments/billing-workspace').then((m) => m.BillingWorkspace);

/** The billing workspace, fetched on demand; a failed fetch says so with 'Reintentar' and leaves the rest of the panel as it was. */
function LazyBillingWorkspace(props: { me: Me; isMobile: boolean; search: string }) {
  const { t } = useTranslation();
  return <LazyPart load={loadBillingWorkspace} props={props} loading={<WindowLoading />} failedMessage={t('admin.windowLoadFailed')} />;
}

/** SPEC §9: the layout turns into cards below 780 px. */
const MOBILE_QUERY = '(max-width: 779.98px)';

/** The auction management panel (SPEC §2 main area): filters, search, table, pagination. */
export function AuctionPanel({ me, onEdit }: AuctionPanelProps) {
  const { t } = useTranslation();
  const { state, setView, setSearch, clampPage, stepPage, setPageSize, show } = useAuctionViewState();
  const search = useSearchDraft(state.search, setSearch);
  const searchRef = useRef<HTMLInputElement>(null);
  const isMobile = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const list = useAuctionPage(state, clampPage);
  useClosedAuctionNotices(list, state, (name) => show(pendingViewFor(name)));
  // SPEC §4: payments, the winners summary and the counts follow paymentStatusUpdate.
  usePaymentsRefresh();

  useAuctionShortcuts({
    onView: setView,
    onFocusSearch: () => searchRef.current?.focus(),
    onClearSearch: () => {
      if (!search.draft && !state.search) return false;
      search.clear();
      return true;
    },
  });

  // Back to the top of the list when the page changes under a long table.
  const sectionRef = useRef<HTMLElement>(null);
  const previousPage = useRef(state.page);
  useEffect(() => {
    if (previousPage.current !== state.page && sectionRef.current && sectionRef.current.getBoundingClientRect().top < 0) {
      sectionRef.current.scrollIntoView({ block: 'start' });
    }
    previousPage.current = state.page;
  }, [state.page]);

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="auction-panel-title" ref={sectionRef}>
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h3" id="auction-panel-title">
            {t('auctions.title')}
          </Title>
          {list.isBackgroundFetching && <Spinner size="xs" type="dots" label={t('auctions.table.updating')} />}
        </Group>
        <AuctionFilterBar view={state.view} onView={setView} counts={list.data?.counts} search={search} searchRef={searchRef} isCompact={isMobile} />
        {state.view === 'winners' ? (
          <LazyBillingWorkspace me={me} isMobile={isMobile} search={state.search} />
        ) : (
          <AuctionResults
            list={list}
            state={state}
            isMobile={isMobile}
            onEdit={onEdit}
            onStep={stepPage}
            onPageSize={setPageSize}
            onClearSearch={search.clear}
            onShowAll={() => setView('all')}
          />
        )}
      </Stack>
    </Card>
  );
}
