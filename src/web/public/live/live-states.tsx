import { Alert, Anchor, Button, Card, EmptyState, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { BroadcastIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import classes from './live-page.module.css';

/** The page's shape while the session loads. */
export function LiveSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" role="status" aria-live="polite" data-testid="live-loading">
      <VisuallyHidden>{t('live.loading')}</VisuallyHidden>
      <Stack gap="xs">
        <Skeleton h={28} w="70%" />
        <Skeleton h={16} w="40%" />
      </Stack>
      <Skeleton className={classes.video} />
      <Skeleton h={180} radius="lg" />
    </Stack>
  );
}

export function LiveLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" role="alert" data-testid="live-load-error">
      <Stack gap="sm" align="flex-start">
        <Text>{message}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

/** 404, or a link whose id cannot be a session's. */
export function LiveNotFound() {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="lg" padding="xl">
      <EmptyState
        icon={<BroadcastIcon size={28} />}
        title={
          <Title order={1} size="h3">
            {t('live.notFound')}
          </Title>
        }
        description={t('live.notFoundHint')}
        color="martillo"
      >
        <Anchor href="/live">{t('live.seeAll')}</Anchor>
      </EmptyState>
    </Card>
  );
}
