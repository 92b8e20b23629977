import { useEffect } from 'react';
import type { AuctionListResponse } from '../../../domain/auctions.js';
import { useAuctionList } from '../../api/auctions';
import { type AuctionViewState, listFilterFor, pageCount } from './view-state';

export interface AuctionPage {
  data: AuctionListResponse | undefined;
  /** Pages of the current answer, at least 1. */
  pages: number;
  /** Nothing to show yet: skeleton rows. */
  isFirstLoad: boolean;
  /** Another page, filter or search is loading behind the rows still on screen. */
  isPageLoading: boolean;
  /** A refresh of the same page (socket event, focus): only a quiet indicator. */
  isBackgroundFetching: boolean;
  /** The URL asks for a page past the end; the clamp is on its way. */
  isPageOutOfRange: boolean;
  error: unknown;
  retry: () => void;
  isRetrying: boolean;
}

/** One page of the admin list for the current view, clamped to the pages that exist. */
/** `clampPage` fixes the URL in place: a correction is not a step the admin took. */
export function useAuctionPage(state: AuctionViewState, clampPage: (page: number) => void): AuctionPage {
  const query = useAuctionList({ filter: listFilterFor(state.view), search: state.search, page: state.page, pageSize: state.pageSize });
  const { data, isPlaceholderData } = query;
  const pages = data ? pageCount(data.total, data.pageSize) : 1;
  // The total shrank (a delete on the last page, another seller's change) or a stale link.
  const isPageOutOfRange = Boolean(data) && !isPlaceholderData && state.page > pages;

  useEffect(() => {
    if (isPageOutOfRange) clampPage(pages);
  }, [isPageOutOfRange, pages, clampPage]);

  return {
    data,
    pages,
    isFirstLoad: query.isPending,
    isPageLoading: isPlaceholderData || isPageOutOfRange,
    isBackgroundFetching: query.isFetching && !isPlaceholderData && !query.isPending,
    isPageOutOfRange,
    error: query.error,
    retry: () => void query.refetch(),
    isRetrying: query.isFetching && query.isError,
  };
}
