import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaymentStatus } from '../../domain/payment-status.js';
import type {
  CheckoutView,
  DraftAnswer,
  FinalizeAnswer,
  MpConnectAnswer,
  MpConnectionStatus,
  PaymentAnswer,
  PaymentView,
  PayoutStatus,
  SandboxOutcome,
  WinnersSummary,
} from '../../domain/payments.js';
import { PAYMENT_STATUS_EVENT } from '../../domain/realtime.js';
import { auctionKeys } from './auctions';
import { api, isApiError } from './client';
import { useResync, useSocketEvent } from './socket';

export interface PaymentListParams {
  /** null lists every status. */
  status: PaymentStatus | null;
  /** Only payouts in this state ('Pagos realizados' filter); absent or null for all. */
  payoutStatus?: PayoutStatus | null;
  /** Free text the server matches (id, winner, items); '' for none. */
  q: string;
}

/** Payments and the winners summary share a root, so one invalidation refreshes the whole billing view. */
export const paymentKeys = {
  all: ['payments'] as const,
  lists: () => [...paymentKeys.all, 'list'] as const,
  list: (params: PaymentListParams) => [...paymentKeys.lists(), params] as const,
  winners: () => [...paymentKeys.all, 'winners-summary'] as const,
  /** One show's lots only (null: every lot). */
  winnersOf: (sessionId: string | null) => [...paymentKeys.winners(), sessionId] as const,
};

export const mpKeys = {
  all: ['mp'] as const,
  status: () => [...mpKeys.all, 'status'] as const,
};

export const checkoutKeys = {
  all: ['checkout'] as const,
  detail: (paymentId: string) => [...checkoutKeys.all, paymentId] as const,
};

const paymentPath = (id: string, action: string) => `/api/payments/${encodeURIComponent(id)}/${action}`;

export function paymentListUrl(params: PaymentListParams): string {
  const query = new URLSearchParams();
  if (params.status) query.set('status', params.status);
  if (params.payoutStatus) query.set('payoutStatus', params.payoutStatus);
  if (params.q.trim()) query.set('q', params.q.trim());
  const text = query.toString();
  return text ? `/api/payments?${text}` : '/api/payments';
}

/** GET /api/winners-summary: ended auctions with a winner that no live payment holds yet; with a show, only its lots. */
export function useWinnersSummary(sessionId: string | null = null) {
  return useQuery({
    queryKey: paymentKeys.winnersOf(sessionId),
    queryFn: ({ signal }) =>
      api.get<WinnersSummary>(sessionId ? `/api/winners-summary?sessionId=${encodeURIComponent(sessionId)}` : '/api/winners-summary', signal),
  });
}

/** GET /api/payments, newest first; the server scopes a seller to its company. */
export function usePayments(params: PaymentListParams, enabled = true) {
  return useQuery({
    queryKey: paymentKeys.list(params),
    queryFn: ({ signal }) => api.get<PaymentView[]>(paymentListUrl(params), signal),
    enabled,
  });
}

/**
 * What a billing change touches: every payment list, the winners summary and the auction list's
 * Pagadas/Pendientes counts. The payments part is awaited, so a mutation ends once the rows moved.
 */
export async function invalidateBilling(queryClient: QueryClient, auctionIds: readonly string[] = []): Promise<void> {
  void queryClient.invalidateQueries({ queryKey: auctionKeys.lists() });
  for (const id of auctionIds) void queryClient.invalidateQueries({ queryKey: auctionKeys.detail(id) });
  await queryClient.invalidateQueries({ queryKey: paymentKeys.all });
}

/** A billing mutation: refresh on success and on failure too (a 409 means someone else moved it). */
function useBillingMutation<TVars, TData>(mutationFn: (vars: TVars) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => invalidateBilling(queryClient) });
}

export const useCreateDraft = () =>
  useBillingMutation(({ winnerId, auctionIds }: { winnerId: string; auctionIds: string[] }) =>
    api.post<DraftAnswer>('/api/payments/draft', { winnerId, auctionIds }),
  );

export const useUpdateShipping = () =>
  useBillingMutation(({ id, shippingCarrier, shippingCost }: { id: string; shippingCarrier: string | null; shippingCost: number }) =>
    api.post<PaymentAnswer>(paymentPath(id, 'update-shipping'), { shippingCarrier, shippingCost }),
  );

export const useAddAuctions = () =>
  useBillingMutation(({ id, auctionIds }: { id: string; auctionIds: string[] }) => api.post<PaymentAnswer>(paymentPath(id, 'add-auctions'), { auctionIds }));

/** Idempotent on the server: a repeat answers the same link. */
export const useFinalizePayment = () => useBillingMutation((id: string) => api.post<FinalizeAnswer>(paymentPath(id, 'finalize')));

export const useCancelPayment = () => useBillingMutation((id: string) => api.post<PaymentAnswer>(paymentPath(id, 'cancel')));

export const useRequestPayout = () => useBillingMutation((id: string) => api.post<PaymentAnswer>(paymentPath(id, 'request-payout')));

export const useMarkPaidOut = () => useBillingMutation((id: string) => api.post<PaymentAnswer>(paymentPath(id, 'mark-paid-out')));

/**
 * SPEC §4 refresh triggers: payments, the winners summary and the auction list refetch on
 * paymentStatusUpdate. After a reconnection they refetch too: an event may have been missed.
 */
export function usePaymentsRefresh(): void {
  const queryClient = useQueryClient();
  useSocketEvent(PAYMENT_STATUS_EVENT, (event) => {
    void invalidateBilling(queryClient, Array.isArray(event?.auctionIds) ? event.auctionIds : []);
  });
  useResync(() => void invalidateBilling(queryClient));
}

// ── The seller's Mercado Pago connection ─────────────────────────────────────

/** GET /api/mp/status. Always stale, so coming back from the authorisation tab refreshes it. */
export function useMpStatus() {
  return useQuery({
    queryKey: mpKeys.status(),
    queryFn: ({ signal }) => api.get<MpConnectionStatus>('/api/mp/status', signal),
    staleTime: 0,
  });
}

/** GET /api/mp/connect: the authorisation URL to open in a new tab. */
export function fetchMpConnectUrl(): Promise<MpConnectAnswer> {
  return api.get<MpConnectAnswer>('/api/mp/connect');
}

// ── The public checkout (sandbox) ────────────────────────────────────────────

/**
 * GET /api/pay/{id}, signed out. A 404 is an answer (no such payment → null), not an error.
 * `pollMs` asks again while the approval is on its way.
 */
export function useCheckout(paymentId: string, pollMs: number | false = false) {
  return useQuery({
    refetchInterval: pollMs,
    queryKey: checkoutKeys.detail(paymentId),
    queryFn: async ({ signal }) => {
      try {
        return await api.get<CheckoutView>(`/api/pay/${encodeURIComponent(paymentId)}`, signal);
      } catch (error) {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** POST /api/pay/{id} {outcome}: the sandbox's buttons; the answer replaces what the page shows. */
export function useSandboxPay(paymentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (outcome: SandboxOutcome) => api.post<{ checkout: CheckoutView }>(`/api/pay/${encodeURIComponent(paymentId)}`, { outcome }),
    onSuccess: (answer) => queryClient.setQueryData(checkoutKeys.detail(paymentId), answer.checkout),
  });
}
