import { Card, EmptyState, Title } from '@mantine/core';
import { GavelIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';

/** The card of a link that leads to no auction (auction-states.tsx loads it on demand). */
export function AuctionNotFoundCard() {
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
