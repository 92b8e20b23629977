import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useRef, useState } from 'react';
import type { Me } from '../../../domain/api-types.js';
import type { InvitationAnswer, ReceivedInvitation } from '../../../domain/invitation-rules.js';
import { useAnswerInvitation } from '../../api/invitations';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { InvitationCard, type InvitationChoice } from './invitation-card';

type Answering = { id: string; choice: InvitationChoice };

/**
 * The invitations sent to the signed-in account, each with Aceptar and Rechazar. One answer at a
 * time, locked in the click itself: a double click sends one request (the server is idempotent too).
 * A refusal (expired, revoked, answered elsewhere) is shown above the list, which is read again.
 */
export function InvitationInbox({
  me,
  invitations,
  empty,
  onAnswered,
}: {
  me: Me;
  invitations: ReceivedInvitation[];
  /** What shows when none is left (a refusal's message stays above it). */
  empty?: ReactNode;
  onAnswered?: (answer: InvitationAnswer) => void;
}) {
  const { t } = useTranslation();
  const answer = useAnswerInvitation();
  const lock = useRef(false);
  const [answering, setAnswering] = useState<Answering | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function send(invitation: ReceivedInvitation, choice: InvitationChoice) {
    if (lock.current) return;
    lock.current = true;
    setAnswering({ id: invitation.id, choice });
    setError(null);
    const company = invitation.companyName ?? invitation.companyId;
    try {
      const result = await answer.mutateAsync({ id: invitation.id, answer: choice });
      notifications.show(
        result.status === 'accepted'
          ? { color: 'green', title: t('invitations.accepted'), message: t('invitations.acceptedMessage', { company }) }
          : { color: 'gray', title: t('invitations.declined'), message: t('invitations.declinedMessage', { company }) },
      );
      onAnswered?.(result);
    } catch (err) {
      const fallback = choice === 'accept' ? t('invitations.acceptFailed') : t('invitations.declineFailed');
      setError(apiErrorText(err, { networkMessage: t('common.networkError'), fallback }));
    } finally {
      lock.current = false;
      setAnswering(null);
    }
  }

  return (
    <Stack gap="md">
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      {invitations.length === 0 && empty}
      {invitations.map((invitation) => (
        <InvitationCard
          key={invitation.id}
          me={me}
          invitation={invitation}
          busy={answering === null ? null : answering.id === invitation.id ? answering.choice : 'other'}
          onAnswer={(choice) => void send(invitation, choice)}
        />
      ))}
    </Stack>
  );
}

/** The list's own loading and error states, shared by the page and the panel's gate. */
export function InboxLoading() {
  const { t } = useTranslation();
  return (
    <Group gap="sm" py="md" justify="center" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden="true" />
      <Text>{t('invitations.loading')}</Text>
    </Group>
  );
}

export function InboxLoadFailed({ onRetry, isRetrying }: { onRetry: () => void; isRetrying: boolean }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" role="alert" title={t('invitations.loadFailed')}>
      <Button size="xs" variant="outline" color="red" onClick={onRetry} loading={isRetrying}>
        {t('common.retry')}
      </Button>
    </Alert>
  );
}
