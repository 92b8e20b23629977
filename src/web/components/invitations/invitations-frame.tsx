import { Alert, Button, Center, Container, Divider, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Me } from '../../../domain/api-types.js';
import { useSignOut } from '../../api/auth';
import { displayNameOf } from '../../api/me';
import { useTranslation } from '../../i18n';
import { GavelIcon } from '../icons';
import { LogoutIcon } from '../panel-icons';
import { SiteFooter } from '../site-footer';

/**
 * The page around the invitations, on a phone first: one column, the heading, the list, and who is
 * signed in with a way out (the invitation may have been sent to another of their accounts).
 */
export function InvitationsFrame({ me, children, inverted = false }: { me: Me | null; children: ReactNode; inverted?: boolean }) {
  const { t } = useTranslation();
  const column = (
    <Stack gap="lg">
      <Stack gap="xs" align="center" ta="center">
        <Center c="martillo.7" aria-hidden="true">
          <GavelIcon size={36} />
        </Center>
        <Title order={1} size="h3">
          {t('invitations.heading')}
        </Title>
      </Stack>
      {children}
      {me && <SignedInAs me={me} />}
    </Stack>
  );
  return (
    <Stack mih="100dvh" justify="space-between" gap={0}>
      <Container component="main" size={560} w="100%" px="md" py="xl">
        {/* On the Live Hub's dark page the column sits on a card, as its unauthorised screen does. */}
        {inverted ? (
          <Paper p="lg" radius="lg">
            {column}
          </Paper>
        ) : (
          column
        )}
      </Container>
      <SiteFooter inverted={inverted} />
    </Stack>
  );
}

function SignedInAs({ me }: { me: Me }) {
  const { t } = useTranslation();
  const { signOut, isSigningOut, error } = useSignOut();
  return (
    <Stack gap="xs">
      <Divider />
      <Text size="sm">{t('auth.signedInAs', { name: displayNameOf(me), email: me.user.email })}</Text>
      {Boolean(error) && (
        <Alert color="red" variant="light" role="alert">
          {t('auth.signOutFailed')}
        </Alert>
      )}
      <Button variant="subtle" leftSection={<LogoutIcon />} loading={isSigningOut} onClick={signOut} style={{ alignSelf: 'flex-start' }}>
        {t('auth.signOut')}
      </Button>
    </Stack>
  );
}
