import { Alert, Stack, Text, Title } from '@mantine/core';
import { useRef, useState } from 'react';
import type { SandboxOutcome } from '../../domain/payments.js';
import { usePublicConfig } from '../api/config';
import { useCheckout, useSandboxPay } from '../api/payments';
import { AlertIcon } from '../components/icons';
import { addPageStrings, useTranslation } from '../i18n';
import checkoutStrings from '../i18n/es-MX.json?section=checkout';
import { apiErrorText } from '../lib/api-errors';
import { replaceUrl } from '../lib/pathname';
import { CheckoutLoadError, CheckoutOutcome, CheckoutUnavailable, PayNotice, ProviderHint, SandboxButtons, TestPaymentBanner } from './pay/checkout-panels';
import { type CheckoutResult, checkoutResultFrom, checkoutScreen, PROCESSING_POLL_MS } from './pay/checkout-state';
import { CheckoutSkeleton, CheckoutSummary } from './pay/checkout-summary';
import { PublicLayout } from './public-layout';

// This page's own strings, not in the first load (i18n/parts.ts).
addPageStrings(checkoutStrings);

/** /pay/{id}: the page a winner opens from the payment link. Signed out, Spanish, phone first. */
export function PayPage({ paymentId }: { paymentId: string }) {
  return (
    <PublicLayout size="xs">
      <PayContent paymentId={paymentId} />
    </PublicLayout>
  );
}

function PayContent({ paymentId }: { paymentId: string }) {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const [outcome, setOutcome] = useState<SandboxOutcome | null>(null);
  const [result, setResult] = useState<CheckoutResult | null>(() => checkoutResultFrom(window.location.search));
  const [isPolling, setPolling] = useState(false);
  const checkout = useCheckout(paymentId, isPolling ? PROCESSING_POLL_MS : false);

  if (checkout.isPending || config.isPending) return <CheckoutSkeleton />;
  if (checkout.isError && checkout.data === undefined) return <CheckoutLoadError onRetry={() => void checkout.refetch()} isRetrying={checkout.isFetching} />;

  // Without the config (it failed to load) the server still refuses a sandbox outcome it does not run.
  const isSandbox = config.data ? config.data.payments === 'sandbox' : true;
  const view = checkout.data ?? null;
  const screen = checkoutScreen(view, { outcome, result, isSandbox });
  // Poll only while an approval is on its way; a render-time state update is React's way to sync it.
  if ((screen.kind === 'processing') !== isPolling) setPolling(screen.kind === 'processing');

  const banner = (view ? view.isTest : isSandbox) ? <TestPaymentBanner /> : null;
  const unavailable = screen.kind === 'notFound' || screen.kind === 'canceled' || screen.kind === 'notReady' ? screen.kind : view ? null : 'notFound';
  if (unavailable || !view) {
    return (
      <Stack gap="md">
        {banner}
        <CheckoutUnavailable kind={unavailable ?? 'notFound'} />
      </Stack>
    );
  }

  const tryAgain = () => {
    setOutcome(null);
    setResult(null);
    // Mercado Pago's return parameters go from the address, so a reload does not show that result again.
    if (window.location.search) replaceUrl(window.location.pathname);
  };

  return (
    <Stack gap="md">
      {banner}
      <Stack gap={2}>
        <Title order={1} size="h2">
          {t('checkout.title')}
        </Title>
        {view.companyName && (
          <Text c="dimmed" size="sm">
            {t('checkout.intro', { name: view.companyName })}
          </Text>
        )}
      </Stack>
      <CheckoutOutcome screen={screen} checkout={view} onTryAgain={tryAgain} />
      {screen.kind === 'pay' && <PayNotice notice={screen.notice} />}
      <CheckoutSummary checkout={view} />
      {screen.kind === 'pay' && (screen.canPay ? <PayButtons paymentId={paymentId} onOutcome={setOutcome} /> : <ProviderHint />)}
    </Stack>
  );
}

/** The sandbox's buttons: one request at a time; the answer replaces what the page shows. */
function PayButtons({ paymentId, onOutcome }: { paymentId: string; onOutcome: (outcome: SandboxOutcome) => void }) {
  const { t } = useTranslation();
  const pay = useSandboxPay(paymentId);
  const [pressed, setPressed] = useState<SandboxOutcome | null>(null);
  const inFlight = useRef(false);

  const onPay = async (outcome: SandboxOutcome) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPressed(outcome);
    try {
      await pay.mutateAsync(outcome);
      onOutcome(outcome);
    } catch {
      // The error shows below the buttons.
    } finally {
      inFlight.current = false;
      setPressed(null);
    }
  };

  return (
    <Stack gap="sm">
      {pay.error && !pay.isPending && (
        <Alert color="red" variant="light" icon={<AlertIcon />} title={t('checkout.payFailed')} role="alert">
          {apiErrorText(pay.error, { networkMessage: t('common.networkError'), fallback: t('common.genericError') })}
        </Alert>
      )}
      <SandboxButtons onPay={(outcome) => void onPay(outcome)} pending={pressed} isBusy={pressed !== null} />
    </Stack>
  );
}
