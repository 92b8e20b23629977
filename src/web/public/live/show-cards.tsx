import { Card, type CardProps, Text, Title } from '@mantine/core';
import { useTranslation } from '../../i18n';

/** The wide page draws its cards with a border, the phone's sit bare over the video. */
type CardLook = Pick<CardProps, 'withBorder' | 'padding'>;

/** The show is over: said where the lot on the block would be. */
export function EndedShowCard(look: CardLook) {
  const { t } = useTranslation();
  return (
    <Card radius="lg" {...look} data-testid="ended-session">
      <Title order={2} size="h4">
        {t('live.ended.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('live.ended.hint')}
      </Text>
    </Card>
  );
}

/** The show runs with no lot on the block yet. */
export function WaitingLotCard(look: CardLook) {
  const { t } = useTranslation();
  return (
    <Card radius="lg" {...look} data-testid="waiting-lot">
      <Text c="dimmed">{t('live.current.waiting')}</Text>
    </Card>
  );
}
