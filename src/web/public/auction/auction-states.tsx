import { Alert, Button, Card, EmptyState, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { GavelIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import classes from './auction-page.module.css';

/** The page's shape while the auction loads, so nothing jumps when it arrives. */
export function AuctionSkeleton() {
  const { t } = useTranslation();
  return (
    <div className={classes.layout} role="status" aria-live="polite" data-testid="auction-loading">
      <VisuallyHidden>{t('publicAuction.loading')}</VisuallyHidden>
      <Skeleton className={classes.areaGallery} radius="lg" style={{ aspectRatio: '4 / 3' }} />
      <Stack gap="xs" className={classes.areaSummary}>
        <Skeleton h={20} w={80} radius="xl" />
        <Skeleton h={32} w="80%" />
      </Stack>
      <Card withBorder radius="lg" padding="lg" className={classes.bid}>
        <Stack gap="sm">
          <Skeleton h={16} w={100} />
          <Skeleton h={36} w={180} />
          <Skeleton h={16} w={140} />
          <Skeleton h={48} mt="md" />
        </Stack>
      </Card>
      <Skeleton h={160} radius="lg" className={classes.areaDetails} />
    </div>
  );
}

export function AuctionLoadError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" role="alert">
      <Stack gap="sm" align="flex-start">
        <Text>{t('publicAuction.loadFailed')}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

export function AuctionNotFound() {
  const { t } = useTranslation();
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
