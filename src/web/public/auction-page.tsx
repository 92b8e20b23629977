import { Alert, Button, Card, EmptyState, Group, Image, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../domain/money.js';
import { usePublicAuction } from '../api/auctions';
import { GavelIcon } from '../components/icons';
import { formatDate } from '../lib/dates';
import { PublicLayout } from './public-layout';

/** /auctions/{id}: the page a buyer opens from a shared link; works signed out. */
export function AuctionPage({ auctionId }: { auctionId: string }) {
  return (
    <PublicLayout>
      <AuctionContent auctionId={auctionId} />
    </PublicLayout>
  );
}

function AuctionContent({ auctionId }: { auctionId: string }) {
  const { t } = useTranslation();
  const auction = usePublicAuction(auctionId);

  if (auction.isPending) {
    return (
      <Group justify="center" py="xl" role="status" aria-live="polite">
        <Loader size="sm" aria-hidden="true" />
        <Text>{t('publicAuction.loading')}</Text>
      </Group>
    );
  }
  if (auction.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        <Stack gap="sm" align="flex-start">
          <Text>{t('publicAuction.loadFailed')}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void auction.refetch()}>
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (!auction.data) {
    return (
      <Card withBorder radius="lg" padding="xl">
        <EmptyState
          icon={<GavelIcon size={28} />}
          title={
            <Title order={1} size="h3">
              {t('publicAuction.notFound')}
            </Title>
          }
          description={t('publicAuction.notFoundHint')}
          color="martillo"
        />
      </Card>
    );
  }

  const { name, description, startingPrice, endTime, images } = auction.data;
  const cover = images?.[0];
  return (
    <Card withBorder radius="lg" padding="lg">
      {cover && (
        <Card.Section mb="md">
          <Image src={cover} alt={t('publicAuction.imageAlt', { name })} fit="cover" mah={420} />
        </Card.Section>
      )}
      <Stack gap="sm">
        <Title order={1} size="h2">
          {name}
        </Title>
        {typeof startingPrice === 'number' && (
          <Group gap="xs">
            <Text c="dimmed">{t('publicAuction.startingPrice')}</Text>
            <Text fw={700}>{formatMoney(startingPrice)}</Text>
          </Group>
        )}
        {typeof endTime === 'number' && (
          <Text size="sm" c="dimmed">
            {t('publicAuction.endsAt', { date: formatDate(endTime) })}
          </Text>
        )}
        {description && <Text style={{ whiteSpace: 'pre-line' }}>{description}</Text>}
      </Stack>
    </Card>
  );
}
