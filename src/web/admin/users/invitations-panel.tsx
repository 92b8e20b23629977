import { Alert, Badge, Button, EmptyState, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { Me } from '../../../domain/api-types.js';
import type { Invitation, InvitationStatus } from '../../../domain/invitation-rules.js';
import { useInvitations, useRevokeInvitation } from '../../api/invitations';
import { UsersIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { formatDate } from '../../lib/dates';
import { InviteSellerForm } from './invite-seller-form';

/**
 * 'Invitaciones': invite a seller, and the invitations sent (pending, expired or declined by the
 * person) with 'Revocar' (which asks first). Accepted ones leave: the person is then in 'Usuarios'.
 */
export function InvitationsPanel({ me, isCompact }: { me: Me; isCompact: boolean }) {
  const { t } = useTranslation();
  const list = useInvitations();
  const [revoking, setRevoking] = useState<Invitation | null>(null);

  return (
    <Stack gap="md">
      <InviteSellerForm me={me} />
      <Title order={3} size="h5">
        {t('users.invitations.pendingTitle')}
      </Title>
      {list.isError ? (
        <Alert color="red" variant="light" role="alert" title={t('users.invitations.loadFailed')}>
          <Button size="xs" variant="outline" color="red" onClick={() => void list.refetch()} loading={list.isFetching}>
            {t('common.retry')}
          </Button>
        </Alert>
      ) : !list.data ? (
        <Group gap="sm" py="md" justify="center" role="status" aria-live="polite">
          <Loader size="sm" aria-hidden="true" />
          <Text>{t('users.invitations.loading')}</Text>
        </Group>
      ) : list.data.items.length === 0 ? (
        <EmptyState icon={<UsersIcon size={28} />} withIndicatorBackground title={t('users.invitations.empty')} py="md" role="status" />
      ) : (
        <InvitationsTable invitations={list.data.items} isCompact={isCompact} onRevoke={setRevoking} />
      )}
      <RevokeInvitationModal invitation={revoking} onClose={() => setRevoking(null)} />
    </Stack>
  );
}

const STATUS_COLORS: Record<InvitationStatus, string> = { pending: 'blue', expired: 'gray', declined: 'orange' };

function InvitationsTable({ invitations, isCompact, onRevoke }: { invitations: Invitation[]; isCompact: boolean; onRevoke: (i: Invitation) => void }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={isCompact ? 560 : 720}>
      <Table striped verticalSpacing="xs" aria-label={t('users.invitations.listLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('users.invitations.columns.email')}</Table.Th>
            <Table.Th>{t('users.invitations.columns.company')}</Table.Th>
            <Table.Th>{t('users.invitations.columns.invitedBy')}</Table.Th>
            <Table.Th>{t('users.invitations.columns.expires')}</Table.Th>
            <Table.Th>{t('users.invitations.columns.status')}</Table.Th>
            <Table.Th>{t('users.invitations.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invitations.map((invitation) => (
            <Table.Tr key={invitation.id}>
              <Table.Td style={{ wordBreak: 'break-all' }}>{invitation.email}</Table.Td>
              <Table.Td>{invitation.companyName ?? invitation.companyId}</Table.Td>
              <Table.Td>{invitation.invitedByName ?? t('users.noValue')}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(invitation.expiresAt)}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={STATUS_COLORS[invitation.status]}>
                  {t(`users.invitations.status.${invitation.status}`)}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  onClick={() => onRevoke(invitation)}
                  aria-label={t('users.invitations.revokeFor', { email: invitation.email })}
                >
                  {t('users.invitations.revoke')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Asks before revoking; sits on the 'Usuarios' stack so Escape closes only this window. */
function RevokeInvitationModal({ invitation, onClose }: { invitation: Invitation | null; onClose: () => void }) {
  const { t } = useTranslation();
  const revoke = useRevokeInvitation();
  const [error, setError] = useState<string | null>(null);
  const email = invitation?.email ?? '';

  async function confirm() {
    if (!invitation || revoke.isPending) return;
    setError(null);
    try {
      await revoke.mutateAsync(invitation.id);
      notifications.show({ color: 'green', title: t('users.invitations.revoked'), message: t('users.invitations.revokedMessage', { email }) });
      onClose();
    } catch (err) {
      setError(apiErrorText(err, { networkMessage: t('common.networkError'), fallback: t('users.invitations.revokeFailed') }));
    }
  }

  return (
    <Modal
      stackId="revoke-invitation"
      opened={invitation !== null}
      onClose={() => {
        if (revoke.isPending) return;
        setError(null);
        onClose();
      }}
      title={t('users.invitations.revokeTitle')}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md">
        <Text size="sm">{t('users.invitations.revokeConfirm', { email })}</Text>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            onClick={() => {
              setError(null);
              onClose();
            }}
            disabled={revoke.isPending}
          >
            {t('users.invitations.revokeCancel')}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={revoke.isPending}>
            {t('users.invitations.revoke')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
