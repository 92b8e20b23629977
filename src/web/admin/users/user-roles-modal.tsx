import { Alert, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import type { Me } from '../../../domain/api-types.js';
import { ROLES, type Role } from '../../../domain/role-rules.js';
import type { UserListItem } from '../../../domain/users.js';
import { useSetUserRoles } from '../../api/users';
import { useTranslation } from '../../i18n';
import { failureReason } from '../../lib/api-errors';
import { orderedRoles, sameRoles, selfAccessLoss, userLabel } from './user-format';

interface UserRolesModalProps {
  me: Me;
  /** The user being edited; kept while the window fades out. */
  user: UserListItem | null;
  opened: boolean;
  onClose: () => void;
  onExited: () => void;
}

/** 'Editar roles' (SPEC §2, §6): checkboxes for Administrador, Vendedor and Comprador. Sits on the 'Usuarios' stack. */
export function UserRolesModal({ me, user, opened, onClose, onExited }: UserRolesModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      stackId="user-roles"
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExited}
      title={t('users.rolesTitle')}
      size="md"
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {user && <UserRolesForm key={user.uid} me={me} user={user} onClose={onClose} />}
    </Modal>
  );
}

function UserRolesForm({ me, user, onClose }: { me: Me; user: UserListItem; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSetUserRoles();
  const [selected, setSelected] = useState<Role[]>(() => orderedRoles(user.roles));
  const [isAcknowledged, setAcknowledged] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = userLabel(user);
  const isSelf = user.uid === me.user.id;
  // Editing oneself: warn before a save that takes away the panel or the admin tools.
  const loss = isSelf ? selfAccessLoss(me.roles, selected) : null;
  const isUnchanged = sameRoles(selected, user.roles);
  const canSave = !isUnchanged && !save.isPending && (loss === null || isAcknowledged);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!canSave) return;
    setError(null);
    try {
      await save.mutateAsync({ uid: user.uid, roles: orderedRoles(selected) });
      notifications.show({ color: 'green', title: t('users.rolesSaved'), message: t('users.rolesSavedMessage', { name }) });
      onClose();
    } catch (err) {
      const reason = failureReason(err, { field: 'roles', networkMessage: t('common.networkError') });
      setError(reason ? t('users.rolesFailedReason', { reason }) : t('users.rolesFailed'));
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <div>
          <Text fw={600}>{name}</Text>
          {name !== user.email && (
            <Text size="sm" c="dimmed">
              {user.email}
            </Text>
          )}
        </div>
        <Checkbox.Group
          label={t('users.rolesLabel', { name })}
          value={selected}
          onChange={(value) => {
            setSelected(orderedRoles(value));
            setAcknowledged(false);
            setError(null);
          }}
        >
          <Stack gap="xs" mt="xs">
            {ROLES.map((role) => (
              <Checkbox key={role} value={role} label={t(`users.roles.${role}`)} disabled={save.isPending} />
            ))}
          </Stack>
        </Checkbox.Group>
        {loss && (
          <Alert color="yellow" variant="light" role="alert">
            <Stack gap="sm">
              <Text size="sm">{loss === 'panel' ? t('users.selfLosePanel') : t('users.selfLoseAdmin')}</Text>
              <Checkbox
                label={t('users.selfAcknowledge')}
                checked={isAcknowledged}
                onChange={(event) => setAcknowledged(event.currentTarget.checked)}
                disabled={save.isPending}
              />
            </Stack>
          </Alert>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {t('users.cancel')}
          </Button>
          <Button type="submit" color={loss ? 'red' : undefined} loading={save.isPending} disabled={!canSave}>
            {t('users.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
