import { ActionIcon, Alert, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { LiveSessionData } from '../../api/live';
import { useUpdateSession } from '../../api/live-hub';
import { ChevronLeftIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { formatDate } from '../../lib/dates';
import { AfterShowSection } from '../after-show/after-show-section';
import { PHONE_CONTROLS_CLASS } from '../hub-layout';
import { ReopenPrompt, useAskReopen } from '../hub-prompts';
import { SessionStatusBadge } from '../session-bar';
import classes from './phone-shows.module.css';

/** The reopen question's place in the Hub's one Modal.Stack (hub-windows.ts). */
const REOPEN_WINDOW = 'livehub-phone-after-show-reopen';

interface PhoneAfterShowProps {
  detail: LiveSessionData;
  /** Back to the phone list of shows. */
  onLeave: () => void;
}

/**
 * An ended show on a phone: its 'Resumen del show' and 'Cobrar el show', never the live controls,
 * and no camera (nothing here asks for it). The seller goes back to the list with '<', or opens
 * the show again after the usual question, which brings the live controls back.
 */
export function PhoneAfterShow({ detail, onLeave }: PhoneAfterShowProps) {
  const { t } = useTranslation();
  const { session } = detail;
  const update = useUpdateSession();
  const reopen = useAskReopen();

  const reopenShow = async () => {
    if (update.isPending || !(await reopen.ask())) return;
    // The status is the seller's explicit choice, as in the sessions table: the server takes it as confirmed.
    update.mutate({ id: session.id, input: { status: 'scheduled' } });
  };

  return (
    <main className={`${classes.afterShow} ${PHONE_CONTROLS_CLASS}`} data-testid="phone-after-show" data-session-id={session.id}>
      <header className={classes.topBar}>
        <ActionIcon variant="filled" color="dark" radius="xl" className={classes.back} onClick={onLeave} aria-label={t('livehub.phoneShows.back')}>
          <ChevronLeftIcon size={22} />
        </ActionIcon>
        <div className={classes.heading}>
          <h1>{session.title}</h1>
          <Group gap={6} wrap="wrap">
            <SessionStatusBadge status={session.status} />
            {session.rehearsal && (
              <Badge color="grape" variant="filled" tt="none">
                {t('livehub.phoneShows.rehearsal')}
              </Badge>
            )}
            <Text size="xs" c="gray.4">
              {formatDate(session.scheduledAt)}
            </Text>
          </Group>
        </div>
      </header>

      <div className={classes.body}>
        {!detail.canEdit ? (
          <Alert color="yellow" variant="filled">
            {t('livehub.bar.readOnly')}
          </Alert>
        ) : session.rehearsal ? (
          <Alert color="grape" variant="filled" role="status" title={t('livehub.rehearsal.banner')}>
            {t('livehub.phoneShows.rehearsalEnded')}
          </Alert>
        ) : (
          <AfterShowSection detail={detail} layout="phone" />
        )}

        {detail.canEdit && (
          <Paper radius="lg" p="md">
            <Stack gap="xs" align="flex-start">
              <Text size="sm" c="dark.6">
                {t('livehub.phoneShows.reopenHint')}
              </Text>
              <Button variant="default" className={classes.touch} onClick={() => void reopenShow()} loading={update.isPending}>
                {t('livehub.phoneShows.reopen')}
              </Button>
              {update.isError && (
                <Text size="sm" c="red.8" role="alert">
                  {apiErrorText(update.error, { networkMessage: t('common.networkError'), fallback: t('livehub.phoneShows.reopenFailed') })}
                </Text>
              )}
            </Stack>
          </Paper>
        )}
      </div>
      <ReopenPrompt stackId={REOPEN_WINDOW} {...reopen.prompt} />
    </main>
  );
}
