import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useMemo, useState } from 'react';
import { useHubSessions } from '../../api/live-hub';
import { BroadcastIcon } from '../../components/icons';
import { PlusIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { DeleteSessionPrompt, useSessionDeletion } from '../sessions-modal';
import { useNow } from '../use-now';
import classes from './phone-shows.module.css';
import { ShowCard } from './show-card';
import { groupShows, SHOW_GROUPS, type ShowGroup } from './show-groups';

/** The phone list's own window in the Hub's one Modal.Stack (hub-windows.ts): its delete question. */
export const PHONE_SHOWS_WINDOW = { deleteSession: 'livehub-phone-shows-delete' } as const;

/** Past shows shown at first, and added by each 'Ver más'. */
const PAST_PAGE = 10;

interface PhoneShowsProps {
  onLoad: (id: string) => void;
  onCreate: () => void;
  onEdit: (id: string) => void;
}

/**
 * The Live Hub on a phone with no show loaded: the seller's shows, 'Hoy', 'Próximos' and 'Pasados'
 * (Mexico City dates), each loaded with one tap, and 'Crear sesión'. A loaded show's '<' comes back here.
 */
export function PhoneShows({ onLoad, onCreate, onEdit }: PhoneShowsProps) {
  const { t } = useTranslation();
  const list = useHubSessions();
  // The groups follow the day: a minute's tick is enough to move a show across midnight.
  const now = useNow(60_000);
  const deletion = useSessionDeletion(() => {});
  const [pastShown, setPastShown] = useState(PAST_PAGE);
  const sessions = list.data?.sessions;
  const groups = useMemo(() => (sessions ? groupShows(sessions, now) : null), [sessions, now]);
  const showSeller = useMemo(() => new Set((sessions ?? []).map((s) => s.companyId)).size > 1, [sessions]);

  const createButton = (
    <Button color="martillo" size="md" className={classes.touch} leftSection={<PlusIcon size={18} />} onClick={onCreate}>
      {t('livehub.header.createSession')}
    </Button>
  );

  return (
    <section className={classes.screen} aria-labelledby="phone-shows-title" data-testid="phone-shows">
      <Group justify="space-between" align="center" wrap="nowrap" gap="sm">
        <Title order={2} id="phone-shows-title" c="white" size="h3">
          {t('livehub.phoneShows.title')}
        </Title>
        {groups && sessions && sessions.length > 0 && createButton}
      </Group>

      {list.isPending && (
        <Stack gap="sm" role="status" aria-busy="true">
          <VisuallyHidden>{t('livehub.bar.loading')}</VisuallyHidden>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={112} radius="lg" />
          ))}
        </Stack>
      )}

      {list.isError && (
        <Alert color="red" variant="filled" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{apiErrorText(list.error, { networkMessage: t('common.networkError'), fallback: t('livehub.bar.loadFailed') })}</Text>
            <Button variant="white" color="red" className={classes.touch} onClick={() => void list.refetch()} loading={list.isFetching}>
              {t('common.retry')}
            </Button>
          </Stack>
        </Alert>
      )}

      {groups && sessions?.length === 0 && (
        <Paper radius="lg" p="lg" role="status" data-testid="phone-shows-empty">
          <Stack gap="sm" align="center" ta="center">
            <BroadcastIcon size={32} />
            <Text fw={700}>{t('livehub.noSessions')}</Text>
            <Text size="sm" c="dark.5">
              {t('livehub.phoneShows.emptyHint')}
            </Text>
            {createButton}
          </Stack>
        </Paper>
      )}

      {groups &&
        sessions &&
        sessions.length > 0 &&
        SHOW_GROUPS.map((group) => (
          <ShowGroupSection
            key={group}
            group={group}
            shows={group === 'past' ? groups.past.slice(0, pastShown) : groups[group]}
            hidden={group === 'past' ? Math.max(0, groups.past.length - pastShown) : 0}
            onShowMore={() => setPastShown((n) => n + PAST_PAGE)}
            render={(session) => (
              <ShowCard
                key={session.id}
                session={session}
                now={now}
                showSeller={showSeller}
                onLoad={() => onLoad(session.id)}
                onEdit={() => onEdit(session.id)}
                onDelete={() => deletion.ask(session)}
              />
            )}
          />
        ))}

      <DeleteSessionPrompt stackId={PHONE_SHOWS_WINDOW.deleteSession} {...deletion.prompt} />
    </section>
  );
}

interface ShowGroupSectionProps<T> {
  group: ShowGroup;
  shows: T[];
  /** Shows of the group not listed yet ('Ver más'). */
  hidden: number;
  onShowMore: () => void;
  render: (show: T) => ReactNode;
}

function ShowGroupSection<T>({ group, shows, hidden, onShowMore, render }: ShowGroupSectionProps<T>) {
  const { t } = useTranslation();
  const headingId = `phone-shows-${group}`;
  return (
    <section aria-labelledby={headingId} data-group={group}>
      <Title order={3} id={headingId} size="h5" c="white" mb={8}>
        {t(`livehub.phoneShows.groups.${group}`)}
      </Title>
      {shows.length === 0 ? (
        <Text size="sm" c="gray.4">
          {t(`livehub.phoneShows.groupEmpty.${group}`)}
        </Text>
      ) : (
        <ul className={classes.list}>{shows.map(render)}</ul>
      )}
      {hidden > 0 && (
        <Button variant="white" color="dark" fullWidth mt="sm" className={classes.touch} onClick={onShowMore}>
          {t('livehub.phoneShows.showMore', { count: hidden })}
        </Button>
      )}
    </section>
  );
}
