import { Button, Card, Group, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { MyPurchases, PurchaseGroup, PurchaseSeller } from '../../../domain/purchases.js';
import { useMe } from '../../api/me';
import { useMyPurchases } from '../../api/purchases';
import { BroadcastIcon, ChatIcon, GavelIcon, ReceiptIcon } from '../../components/icons';
import { LoadFailed, SignInCard } from '../../components/page-states';
import { addPageStrings, useTranslation } from '../../i18n';
import purchasesStrings from '../../i18n/es-MX.json?section=purchases';
import { DATE_FORMAT, formatDate } from '../../lib/dates';
import { PublicLayout } from '../public-layout';
import { BillCard, ItemLines } from './bill-card';
import { DeclineOffer } from './decline-offer';

// This page's own strings, not in the first load (i18n/parts.ts).
addPageStrings(purchasesStrings);

/** /compras: what the signed-in buyer won, by seller and show, each bill and how to pay it. Phone first. */
export function PurchasesPage() {
  const { t } = useTranslation();
  return (
    <PublicLayout size="xs">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {t('purchases.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('purchases.intro')}
          </Text>
        </Stack>
        <PurchasesContent />
      </Stack>
    </PublicLayout>
  );
}

function PurchasesContent() {
  const { t } = useTranslation();
  const me = useMe();
  const purchases = useMyPurchases(Boolean(me.data));
  if (me.isPending || (me.data && purchases.isPending)) return <PurchasesSkeleton />;
  if (me.isError && me.data === undefined) return <LoadFailed title={t('purchases.loadFailed')} onRetry={() => void me.refetch()} isRetrying={me.isFetching} />;
  if (!me.data)
    return <SignInCard title={t('purchases.signInTitle')} text={t('purchases.signInText')} action={t('purchases.signIn')} testId="purchases-sign-in" />;
  if (purchases.isError && purchases.data === undefined)
    return <LoadFailed title={t('purchases.loadFailed')} onRetry={() => void purchases.refetch()} isRetrying={purchases.isFetching} />;
  return <PurchasesList data={purchases.data as MyPurchases} />;
}

function PurchasesList({ data }: { data: MyPurchases }) {
  if (data.sellers.length === 0) return <EmptyState />;
  return (
    <Stack gap="xl">
      {data.sellers.map((seller) => (
        <SellerSection key={seller.companyId} seller={seller} />
      ))}
    </Stack>
  );
}

function SellerSection({ seller }: { seller: PurchaseSeller }) {
  const { t } = useTranslation();
  const headingId = `seller-${seller.companyId}`;
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId} data-testid="purchase-seller">
      <Group justify="space-between" gap="xs" align="center">
        <Title order={2} size="h3" id={headingId} style={{ overflowWrap: 'anywhere' }}>
          {seller.companyName ?? seller.companyId}
        </Title>
        {seller.whatsappLink && (
          <Button
            component="a"
            href={seller.whatsappLink}
            target="_blank"
            rel="noopener noreferrer"
            color="green"
            variant="light"
            size="compact-md"
            leftSection={<ChatIcon />}
            data-testid="write-seller"
          >
            {t('purchases.writeSeller')}
          </Button>
        )}
      </Group>
      {seller.groups.map((group) => (
        <GroupSection key={group.sessionId ?? 'auctions'} group={group} />
      ))}
    </Stack>
  );
}

function GroupSection({ group }: { group: PurchaseGroup }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="purchase-group">
      <Group gap={6} wrap="nowrap" c="dimmed">
        {group.sessionId ? <BroadcastIcon aria-hidden="true" /> : <GavelIcon aria-hidden="true" />}
        <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {group.title ?? t('purchases.auctions')}
          {group.scheduledAt !== null && ` · ${formatDate(group.scheduledAt, DATE_FORMAT)}`}
        </Text>
      </Group>
      {group.secondChances.map((offer) =>
        offer.bill ? (
          <Stack key={offer.offerId} gap={4} data-testid="second-chance">
            <BillCard bill={offer.bill} label={t('purchases.secondChance')} note={t('purchases.secondChanceHint')} />
            {offer.bill.status === 'toPay' && <DeclineOffer offerId={offer.offerId} />}
          </Stack>
        ) : (
          <Card key={offer.offerId} withBorder radius="lg" padding="md" data-testid="second-chance">
            <Stack gap="xs">
              <Text fw={600}>{t('purchases.secondChance')}</Text>
              <ItemLines items={[offer.item]} />
              <Text size="sm" c="dimmed">
                {t('purchases.secondChanceWaiting')}
              </Text>
            </Stack>
          </Card>
        ),
      )}
      {group.bills.map((bill) => (
        <BillCard key={bill.paymentId} bill={bill} />
      ))}
      {group.unbilled.length > 0 && (
        <Card withBorder radius="lg" padding="md" bg="gray.0" data-testid="purchase-unbilled">
          <Stack gap="xs">
            <Group gap={6} wrap="nowrap">
              <ReceiptIcon aria-hidden="true" />
              <Text fw={600}>{t('purchases.unbilledTitle')}</Text>
            </Group>
            <Text size="sm" c="dimmed">
              {t('purchases.unbilledHint')}
            </Text>
            <ItemLines items={group.unbilled} />
          </Stack>
        </Card>
      )}
    </Stack>
  );
}

function EmptyState() {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="purchases-empty">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h4">
          {t('purchases.emptyTitle')}
        </Title>
        <Text size="sm">{t('purchases.empty')}</Text>
        <Button component="a" href="/live" leftSection={<BroadcastIcon />}>
          {t('purchases.goLive')}
        </Button>
      </Stack>
    </Card>
  );
}

function PurchasesSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" role="status" aria-live="polite">
      <VisuallyHidden>{t('purchases.loading')}</VisuallyHidden>
      <Skeleton h={24} w="50%" />
      <Skeleton h={180} radius="lg" />
      <Skeleton h={120} radius="lg" />
    </Stack>
  );
}
