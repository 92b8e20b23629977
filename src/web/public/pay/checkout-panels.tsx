import { Alert, Anchor, Badge, Button, Card, Center, EmptyState, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { formatMoney } from '../../../domain/money.js';
import type { CheckoutView, SandboxOutcome } from '../../../domain/payments.js';
import { AlertIcon, CheckIcon, ClockIcon, ReceiptIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import { PURCHASES_PATH } from '../../routes';
import { type CheckoutScreen, voucherReference } from './checkout-state';

/** The sandbox's three buttons (SPEC: approve, reject, pending), large for thumbs. */
export function SandboxButtons({ onPay, pending, isBusy }: { onPay: (outcome: SandboxOutcome) => void; pending: SandboxOutcome | null; isBusy: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Badge color="yellow" variant="light">
          {t('checkout.sandboxBadge')}
        </Badge>
        <Text size="xs" c="dimmed">
          {t('checkout.sandboxNotice')}
        </Text>
      </Group>
      <Button size="lg" fullWidth onClick={() => onPay('approve')} loading={pending === 'approve'} disabled={isBusy && pending !== 'approve'}>
        {t('checkout.approve')}
      </Button>
      <Button size="md" fullWidth variant="default" onClick={() => onPay('pending')} loading={pending === 'pending'} disabled={isBusy && pending !== 'pending'}>
        {t('checkout.pending')}
      </Button>
      <Button
        size="md"
        fullWidth
        variant="subtle"
        color="red"
        onClick={() => onPay('reject')}
        loading={pending === 'reject'}
        disabled={isBusy && pending !== 'reject'}
      >
        {t('checkout.reject')}
      </Button>
    </Stack>
  );
}

/** The sandbox (development, or a declared public demo): every checkout page says it is a test. */
export function TestPaymentBanner() {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" variant="filled" icon={<AlertIcon />} title={t('checkout.testBannerTitle')} data-testid="test-payment-banner">
      {t('checkout.testBanner')}
    </Alert>
  );
}

/** The pay screen's notice about an earlier attempt, if any. */
export function PayNotice({ notice }: { notice: 'pendingVoucher' | 'lastRejected' | null }) {
  const { t } = useTranslation();
  if (!notice) return null;
  return (
    <Alert color={notice === 'lastRejected' ? 'red' : 'yellow'} variant="light" icon={notice === 'lastRejected' ? <AlertIcon /> : <ClockIcon />}>
      {t(`checkout.notice.${notice}`)}
    </Alert>
  );
}

/** Real Mercado Pago: this page only reports; paying happens on Mercado Pago's own checkout. */
export function ProviderHint() {
  const { t } = useTranslation();
  return (
    <Alert color="blue" variant="light">
      {t('checkout.providerHint')}
    </Alert>
  );
}

/** After an outcome, or when the payment is already settled: what happened and what comes next. */
export function CheckoutOutcome({ screen, checkout, onTryAgain }: { screen: CheckoutScreen; checkout: CheckoutView; onTryAgain: () => void }) {
  const { t } = useTranslation();
  switch (screen.kind) {
    case 'paid':
      return (
        <Alert
          color="green"
          variant="light"
          icon={<CheckIcon />}
          title={t(screen.justNow ? 'checkout.approvedTitle' : 'checkout.alreadyPaidTitle')}
          role="status"
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t(screen.justNow ? 'checkout.approvedText' : 'checkout.alreadyPaidText')}</Text>
            <Anchor href={PURCHASES_PATH} size="sm" fw={600} data-testid="see-purchases">
              {t('purchases.nav.seeAll')}
            </Anchor>
          </Stack>
        </Alert>
      );
    case 'processing':
      return (
        <Alert color="blue" variant="light" icon={<Loader size="xs" />} title={t('checkout.processingTitle')} role="status">
          {t('checkout.processingText')}
        </Alert>
      );
    case 'rejected':
      return (
        <Alert color="red" variant="light" icon={<AlertIcon />} title={t('checkout.rejectedTitle')} role="alert">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('checkout.rejectedText')}</Text>
            <Button color="red" variant="light" onClick={onTryAgain}>
              {t('checkout.tryAgain')}
            </Button>
          </Stack>
        </Alert>
      );
    case 'waiting':
      return <OxxoVoucher checkout={checkout} onOtherMethod={onTryAgain} />;
    default:
      return null;
  }
}

/** Cash at OXXO: a voucher with the reference and amount, and how long confirmation takes. */
function OxxoVoucher({ checkout, onOtherMethod }: { checkout: CheckoutView; onOtherMethod: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="lg" p="lg" style={{ borderStyle: 'dashed' }} role="status" aria-labelledby="oxxo-title">
      <Stack gap="sm">
        <Group gap="xs">
          <ClockIcon />
          <Title order={2} size="h4" id="oxxo-title">
            {t('checkout.pendingTitle')}
          </Title>
        </Group>
        <Text size="sm">{t('checkout.pendingText')}</Text>
        <Stack gap={2} align="center" py="sm" bg="gray.0" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
          <Text size="xs" c="dimmed" tt="uppercase">
            {t('checkout.reference')}
          </Text>
          <Text ff="monospace" fz="xl" fw={700} data-testid="oxxo-reference">
            {voucherReference(checkout.paymentId)}
          </Text>
          <Text size="sm">{t('checkout.amountToPay', { amount: formatMoney(checkout.grandTotal) })}</Text>
        </Stack>
        <Text size="xs" c="dimmed">
          {t('checkout.pendingTiming')}
        </Text>
        <Button variant="subtle" onClick={onOtherMethod}>
          {t('checkout.otherMethod')}
        </Button>
      </Stack>
    </Paper>
  );
}

/**
 * No such payment (a link mistyped or cut short on its way), a cancelled link, or a draft not yet
 * finalised: no summary, no buttons. A link that leads nowhere says so and what to do: open it
 * again from the seller's message, ask for it again, or find the bills in 'Mis compras'.
 */
export function CheckoutUnavailable({ kind }: { kind: 'notFound' | 'canceled' | 'notReady' }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="lg" padding="xl" data-testid={`checkout-${kind}`}>
      <Stack gap="md" align="center">
        <EmptyState
          icon={<ReceiptIcon size={28} />}
          title={
            <Title order={1} size="h3">
              {t(`checkout.${kind}Title`)}
            </Title>
          }
          description={t(`checkout.${kind}Text`)}
          color={kind === 'canceled' ? 'red' : 'martillo'}
        />
        {kind === 'notFound' && (
          <Stack gap={4} align="center">
            <Text size="sm" c="dimmed" ta="center">
              {t('checkout.notFoundPurchasesHint')}
            </Text>
            <Button component="a" href={PURCHASES_PATH} variant="light" size="md">
              {t('purchases.nav.seeAll')}
            </Button>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

export function CheckoutLoadError({ onRetry, isRetrying }: { onRetry: () => void; isRetrying: boolean }) {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Alert color="red" variant="light" role="alert" w="100%">
        <Stack gap="sm" align="flex-start">
          <Text>{t('checkout.loadFailed')}</Text>
          <Button size="xs" variant="light" color="red" onClick={onRetry} loading={isRetrying}>
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    </Center>
  );
}
