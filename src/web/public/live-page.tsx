import { Card, EmptyState, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BroadcastIcon } from '../components/icons';
import { PublicLayout } from './public-layout';

interface LivePageProps {
  slug: string | null;
  sessionId: string | null;
}

/** /live, /live/{sessionId}, /live/{slug}/{sessionId}: the public viewing page; works signed out. */
export function LivePage({ sessionId }: LivePageProps) {
  const { t } = useTranslation();
  return (
    <PublicLayout>
      <Title order={1} size="h2" mb="md">
        {t('live.title')}
      </Title>
      <Card withBorder radius="lg" padding="xl" data-session-id={sessionId ?? undefined}>
        <EmptyState icon={<BroadcastIcon size={28} />} title={t('live.noSession')} description={t('live.noSessionHint')} color="martillo" />
      </Card>
    </PublicLayout>
  );
}
