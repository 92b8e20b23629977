import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Me } from '../../../domain/api-types.js';
import { useReceivedInvitations } from '../../api/invitations';
import { useTranslation } from '../../i18n';
import { LoadingScreen } from '../loading-screen';
import { InvitationInbox } from './invitation-inbox';
import { InvitationsFrame } from './invitations-frame';

/**
 * For a signed-in account without the panel (a buyer): its pending invitations instead of 'No
 * autorizado', right where sign-in lands. Accepting opens the panel (the gate reads /api/me again);
 * with none left, or if they cannot be read, the unauthorised screen (`fallback`) as before.
 */
export function InvitationGate({ me, fallback, inverted = false }: { me: Me; fallback: ReactNode; inverted?: boolean }) {
  const { t } = useTranslation();
  const list = useReceivedInvitations();
  if (list.isPending) return <LoadingScreen inverted={inverted} />;
  if (list.isError || list.data.items.length === 0) return fallback;
  return (
    <InvitationsFrame me={me} inverted={inverted}>
      <Stack gap="md">
        <Text ta="center">{t('invitations.intro')}</Text>
        <InvitationInbox me={me} invitations={list.data.items} />
      </Stack>
    </InvitationsFrame>
  );
}
