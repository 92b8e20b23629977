import { Anchor, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { AuctionDetail, AuctionListItem } from '../../../domain/auctions.js';
import { formatMoney } from '../../../domain/money.js';
import { auctionKeys } from '../../api/auctions';
import { api, isApiError } from '../../api/client';
import { useTranslation } from '../../i18n';
import type { AuctionPage } from './use-auction-page';
import { type AuctionViewState, MAX_SEARCH_LENGTH, writeViewState } from './view-state';

interface Watched {
  /** The page the rows belong to: rows of another page, search or size are not compared. */
  key: string;
  items: Map<string, Pick<AuctionListItem, 'status' | 'bidCount'>>;
}

/** Where 'Ver en Pendientes' leads: the 'Pendientes' filter, searching the auction's name. */
export function pendingViewFor(name: string): Pick<AuctionViewState, 'view' | 'search' | 'page'> {
  return { view: 'pending', search: name.trim().slice(0, MAX_SEARCH_LENGTH).trim(), page: 1 };
}

/**
 * The seller need not watch the list: an auction that closes while its row is on screen under 'Todas' gets a notice,
 * naming the winner as the panel shows it and linking to it under 'Pendientes', or saying it closed
 * without bids. The list already refetches on the close's `auctionUpdate`; this compares each fresh
 * answer with the one before for the same page. A row that turned 'ended' without bids stays in
 * 'Todas'; a row that left it may have closed with a winner (it moved to 'Pendientes'), been deleted
 * or slid to another page, so its own record decides.
 */
export function useClosedAuctionNotices(list: AuctionPage, state: AuctionViewState, onShowPending: (name: string) => void): void {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const watched = useRef<Watched | null>(null);
  /** Announced (or being checked) once per panel, whatever refetches follow. */
  const announced = useRef(new Set<string>());
  const latest = useRef({ t, onShowPending });
  useEffect(() => {
    latest.current = { t, onShowPending };
  });

  const { data, isPageLoading } = list;
  const { view, search, page, pageSize } = state;

  useEffect(() => {
    if (view !== 'all') {
      watched.current = null;
      return;
    }
    if (!data || isPageLoading) return;
    const key = JSON.stringify([search, page, pageSize]);
    const before = watched.current?.key === key ? watched.current.items : null;
    const now = new Map(data.items.map((item) => [item.id, { status: item.status, bidCount: item.bidCount }]));
    watched.current = { key, items: now };
    if (!before) return;

    const announce = (auction: Pick<AuctionDetail, 'name' | 'currentWinnerName' | 'currentPrice'>) => {
      const { t: tr, onShowPending: show } = latest.current;
      if (!auction.currentWinnerName) {
        notifications.show({
          color: 'gray',
          title: tr('auctions.closed.noBidsTitle'),
          message: tr('auctions.closed.noBidsMessage', { name: auction.name }),
          autoClose: 10_000,
        });
        return;
      }
      const id = notifications.show({
        color: 'green',
        title: tr('auctions.closed.wonTitle'),
        // The seller has a winner to bill: the notice stays until it is closed or followed.
        autoClose: false,
        message: (
          <Stack gap={4} data-testid="closed-notice">
            <Text size="sm">
              {tr('auctions.closed.wonMessage', { name: auction.name, winner: auction.currentWinnerName, price: formatMoney(auction.currentPrice ?? 0) })}
            </Text>
            <Anchor
              href={`/admin?${writeViewState(new URLSearchParams(), { ...pendingViewFor(auction.name), pageSize })}`}
              fw={600}
              size="sm"
              onClick={(event) => {
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                notifications.hide(id);
                show(auction.name);
              }}
            >
              {tr('auctions.closed.showPending')}
            </Anchor>
          </Stack>
        ),
      });
    };

    for (const [id, was] of before) {
      if (announced.current.has(id) || (was.status === 'ended' && was.bidCount === 0)) continue;
      const row = now.get(id);
      const item = data.items.find((i) => i.id === id);
      if (row && item) {
        if (row.status === 'ended' && row.bidCount === 0) {
          announced.current.add(id);
          announce(item);
        }
        continue;
      }
      announced.current.add(id);
      void queryClient
        .fetchQuery({
          queryKey: auctionKeys.detail(id),
          queryFn: ({ signal }) => api.get<AuctionDetail>(`/api/auctions/${encodeURIComponent(id)}`, signal),
          staleTime: 0,
        })
        .then(
          (auction) => {
            if (auction.status === 'ended') announce(auction);
            // Still open (it only slid to another page): it may close later.
            else announced.current.delete(id);
          },
          (error: unknown) => {
            // Deleted (404): nothing closed. Anything else: let a later answer try again.
            if (!isApiError(error) || error.status !== 404) announced.current.delete(id);
          },
        );
    }
  }, [data, isPageLoading, view, search, page, pageSize, queryClient]);
}
