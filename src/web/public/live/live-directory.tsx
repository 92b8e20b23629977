import { Badge, Box, Card, Center, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import type { LiveSessionCard } from '../../../domain/live.js';
import { livePath } from '../../../domain/live-public.js';
import { useLiveDirectory } from '../../api/live';
import { BroadcastIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import { formatDate } from '../../lib/dates';
import classes from './live-page.module.css';
import { LiveLoadError } from './live-states';
import { directoryCards } from './live-view';

/** /live alone: the shows on now, then the next ones, each a link to its page. */
export function LiveDirectory() {
  const { t } = useTranslation();
  const directory = useLiveDirectory();

  let body: ReactNode;
  if (directory.isPending) {
    body = (
      <Stack gap="sm" role="status" aria-live="polite" data-testid="live-loading">
        <Text size="sm" c="dimmed">
          {t('common.loading')}
        </Text>
        {[0, 1].map((i) => (
          <Skeleton key={i} h={150} radius="lg" />
        ))}
      </Stack>
    );
  } else if (directory.isError && !directory.data) {
    body = <LiveLoadError message={t('live.directory.loadFailed')} onRetry={() => void directory.refetch()} />;
  } else {
    const { live, upcoming } = directoryCards(directory.data ?? { live: [], upcoming: [] });
    body =
      live.length === 0 && upcoming.length === 0 ? (
        <Card withBorder radius="lg" padding="xl" data-testid="live-empty">
          <Stack align="center" gap="xs" ta="center">
            <Center c="martillo.6">
              <BroadcastIcon size={28} />
            </Center>
            <Text fw={600}>{t('live.noSession')}</Text>
            <Text size="sm" c="dimmed">
              {t('live.noSessionHint')}
            </Text>
          </Stack>
        </Card>
      ) : (
        <Stack gap="xl">
          {live.length > 0 ? (
            <CardSection title={t('live.directory.liveNow')} cards={live} testId="directory-live" />
          ) : (
            <Text c="dimmed" data-testid="live-none-now">
              {t('live.noSession')}
            </Text>
          )}
          {upcoming.length > 0 && <CardSection title={t('live.directory.upcoming')} cards={upcoming} testId="directory-upcoming" />}
        </Stack>
      );
  }

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('live.title')}
      </Title>
      {body}
    </Stack>
  );
}

function CardSection({ title, cards, testId }: { title: string; cards: LiveSessionCard[]; testId: string }) {
  const headingId = useId();
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId} data-testid={testId}>
      <Title order={2} size="h4" id={headingId}>
        {title}
      </Title>
      <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {cards.map((card) => (
          <li key={card.id}>
            <SessionCard card={card} />
          </li>
        ))}
      </Stack>
    </Stack>
  );
}

function SessionCard({ card }: { card: LiveSessionCard }) {
  const { t } = useTranslation();
  const isLive = card.status === 'live' || card.status === 'paused';
  return (
    <Card component="a" href={livePath(card)} withBorder radius="lg" padding="sm" className={classes.card} data-testid="session-card" data-session-id={card.id}>
      <Group wrap="nowrap" gap="md" align="flex-start">
        <Box className={classes.cardCover}>
          {card.coverImageUrl ? (
            <img src={card.coverImageUrl} alt="" width={72} height={128} style={{ width: '100%', height: '100%', objectFit: 'cover' }} loading="lazy" />
          ) : (
            <Center h="100%">
              <BroadcastIcon size={24} />
            </Center>
          )}
        </Box>
        <Stack gap={4} miw={0}>
          {isLive && (
            <Badge color={card.status === 'live' ? 'red' : 'orange'} variant="filled" tt="none" w="fit-content">
              {t(`live.status.${card.status}`)}
            </Badge>
          )}
          <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
            {card.title}
          </Title>
          {card.sellerName && (
            <Text size="sm" c="dimmed">
              {t('live.seller', { name: card.sellerName })}
            </Text>
          )}
          <Text size="sm" component="time" dateTime={new Date(card.scheduledAt).toISOString()}>
            {formatDate(card.scheduledAt)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('live.directory.lots', { count: card.lotCount })}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}
