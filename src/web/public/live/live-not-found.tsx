import { Anchor, Card, EmptyState, Title } from '@mantine/core';
import { BroadcastIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';

/** The card of a 404, or of a link whose id cannot be a session's (live-states.tsx loads it on demand). */
export function LiveNotFoundCard() {
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
