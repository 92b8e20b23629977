import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Me } from '../../domain/api-types.js';
import type { InvitationAnswer } from '../../domain/invitation-rules.js';
import { startSignIn } from '../api/auth';
import { useReceivedInvitations } from '../api/invitations';
import { hasPanelAccess, useMe } from '../api/me';
import { DevModeBadge } from '../components/dev-mode-badge';
import { ErrorScreen } from '../components/error-screen';
import { InboxLoadFailed, InboxLoading, InvitationInbox } from '../components/invitations/invitation-inbox';
import { InvitationsFrame } from '../components/invitations/invitations-frame';
import { LoadingScreen } from '../components/loading-screen';
import { GoogleIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { ADMIN_HOME } from '../routes';

/**
 * /invitaciones: the address an admin gives the people it invites. Any signed-in account reads and
 * answers its own invitations here, whatever its roles; signed out, it asks to sign in and comes back.
 */
export function InvitationsScreen() {
  const me = useMe();
  if (me.isPending) return <LoadingScreen />;
  if (me.isError && me.data === undefined) return <ErrorScreen error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) return <SignInPrompt />;
  return (
    <InvitationsFrame me={me.data}>
      <ReceivedInvitations me={me.data} />
    </InvitationsFrame>
  );
}

function SignInPrompt() {
  const { t } = useTranslation();
  return (
    <InvitationsFrame me={null}>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md" ta="center">
          <Title order={2} size="h4">
            {t('invitations.signInTitle')}
          </Title>
          <Text size="sm">{t('invitations.signInHelp')}</Text>
          <Button size="md" variant="default" leftSection={<GoogleIcon />} onClick={startSignIn} fullWidth>
            {t('auth.signInWithGoogle')}
          </Button>
          <DevModeBadge />
        </Stack>
      </Paper>
    </InvitationsFrame>
  );
}

function ReceivedInvitations({ me }: { me: Me }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useReceivedInvitations();
  const [accepted, setAccepted] = useState<InvitationAnswer | null>(null);
  const goToPanel = (
    <Button size="md" onClick={() => navigate(ADMIN_HOME)}>
      {t('invitations.goToPanel')}
    </Button>
  );

  return (
    <Stack gap="md">
      {accepted ? (
        <Alert color="green" variant="light" title={t('invitations.accepted')} role="status">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('invitations.acceptedMessage', { company: accepted.companyName ?? accepted.companyId })}</Text>
            {goToPanel}
          </Stack>
        </Alert>
      ) : (
        Boolean(list.data?.items.length) && <Text ta="center">{t('invitations.intro')}</Text>
      )}
      {list.isError ? (
        <InboxLoadFailed onRetry={() => void list.refetch()} isRetrying={list.isFetching} />
      ) : !list.data ? (
        <InboxLoading />
      ) : (
        <InvitationInbox
          me={me}
          invitations={list.data.items}
          onAnswered={(answer) => {
            if (answer.status === 'accepted') setAccepted(answer);
          }}
          empty={
            accepted ? null : (
              <Paper withBorder radius="md" p="lg" role="status">
                <Stack gap="sm" align="center" ta="center">
                  <Text fw={600}>{t('invitations.empty')}</Text>
                  <Text size="sm" c="dimmed">
                    {t('invitations.emptyHint')}
                  </Text>
                  {hasPanelAccess(me) && goToPanel}
                </Stack>
              </Paper>
            )
          }
        />
      )}
    </Stack>
  );
}
