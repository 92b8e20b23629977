import { ActionIcon, Alert, Button, Group, Loader, Modal, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { LiveSessionListItem } from '../../domain/live.js';
import { SESSION_STATUSES, type SessionStatus } from '../../domain/live-public.js';
import { useDeleteSession, useHubSessions, useUpdateSession } from '../api/live-hub';
import { PencilIcon, TrashIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { formatDate } from '../lib/dates';
import { COMPACT_QUERY } from './hub-layout';
import { HUB_WINDOW } from './hub-windows';
import { SessionStatusBadge } from './session-bar';

interface SessionsModalProps {
  opened: boolean;
  onClose: () => void;
  loadedId: string | null;
  onLoad: (id: string) => void;
  onEdit: (id: string) => void;
  /** The loaded session was deleted. */
  onDeleted: (id: string) => void;
}

/** 'Sesiones en vivo' (Gestionar sesiones): the sessions in scope, their status, edit and delete. */
export function SessionsModal({ opened, onClose, loadedId, onLoad, onEdit, onDeleted }: SessionsModalProps) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery(COMPACT_QUERY) ?? false;
  const list = useHubSessions();
  const update = useUpdateSession();
  const deletion = useSessionDeletion(onDeleted);
  const errorText = (error: unknown, fallback: string) => apiErrorText(error, { networkMessage: t('common.networkError'), fallback });
  const sessions = list.data?.sessions ?? [];

  const changeStatus = (session: LiveSessionListItem, status: SessionStatus) => {
    if (status === session.status) return;
    update.mutate(
      { id: session.id, input: { status } },
      {
        onSuccess: () => notifications.show({ color: 'green', message: t('livehub.manage.statusChanged', { status: t(`livehub.status.${status}`) }) }),
        onError: (error) =>
          notifications.show({ color: 'red', title: t('livehub.manage.statusFailed'), message: errorText(error, t('livehub.manage.statusFailed')) }),
      },
    );
  };

  return (
    <>
      <Modal
        stackId={HUB_WINDOW.sessions}
        opened={opened}
        onClose={onClose}
        title={t('livehub.manage.title')}
        size="70rem"
        fullScreen={isMobile}
        centered={!isMobile}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="sm">
          {list.isPending && (
            <Group gap="xs" role="status">
              <Loader size="sm" />
              <Text size="sm">{t('livehub.bar.loading')}</Text>
            </Group>
          )}
          {list.isError && (
            <Alert color="red" variant="light" role="alert">
              <Group justify="space-between" gap="xs">
                <Text size="sm">{errorText(list.error, t('livehub.bar.loadFailed'))}</Text>
                <Button size="xs" variant="light" color="red" onClick={() => void list.refetch()}>
                  {t('common.retry')}
                </Button>
              </Group>
            </Alert>
          )}
          {list.isSuccess && sessions.length === 0 && (
            <Text c="dimmed" size="sm" role="status">
              {t('livehub.noSessions')}
            </Text>
          )}
          {sessions.length > 0 && (
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="xs" striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('livehub.manage.colTitle')}</Table.Th>
                    <Table.Th>{t('livehub.manage.colDate')}</Table.Th>
                    <Table.Th>{t('livehub.manage.colStatus')}</Table.Th>
                    <Table.Th>{t('livehub.manage.colLots')}</Table.Th>
                    <Table.Th>{t('livehub.manage.colActions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {sessions.map((session) => (
                    <Table.Tr key={session.id} data-session-id={session.id}>
                      <Table.Td>
                        <Text size="sm" fw={600} lineClamp={2}>
                          {session.title}
                        </Text>
                        <Text size="xs" c="dimmed">
                          @{session.sellerSlug}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatDate(session.scheduledAt)}</Text>
                      </Table.Td>
                      <Table.Td>
                        {session.canEdit ? (
                          <NativeSelect
                            size="xs"
                            aria-label={t('livehub.manage.statusLabel', { title: session.title })}
                            value={session.status}
                            onChange={(e) => changeStatus(session, e.currentTarget.value as SessionStatus)}
                            data={SESSION_STATUSES.map((s) => ({ value: s, label: t(`livehub.status.${s}`) }))}
                            disabled={update.isPending && update.variables?.id === session.id}
                          />
                        ) : (
                          <SessionStatusBadge status={session.status} />
                        )}
                      </Table.Td>
                      <Table.Td>{session.lotCount}</Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Button
                            size="compact-sm"
                            variant="light"
                            onClick={() => onLoad(session.id)}
                            disabled={session.id === loadedId}
                            aria-label={t(session.id === loadedId ? 'livehub.manage.loadedLabel' : 'livehub.manage.loadLabel', { title: session.title })}
                          >
                            {session.id === loadedId ? t('livehub.manage.loaded') : t('livehub.bar.load')}
                          </Button>
                          {session.canEdit && (
                            <>
                              <ActionIcon
                                variant="subtle"
                                aria-label={t('livehub.manage.editLabel', { title: session.title })}
                                onClick={() => onEdit(session.id)}
                              >
                                <PencilIcon size={16} />
                              </ActionIcon>
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                aria-label={t('livehub.manage.deleteLabel', { title: session.title })}
                                onClick={() => deletion.ask(session)}
                              >
                                <TrashIcon size={16} />
                              </ActionIcon>
                            </>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      </Modal>
      <DeleteSessionPrompt stackId={HUB_WINDOW.deleteSession} {...deletion.prompt} />
    </>
  );
}

/**
 * 'Eliminar sesión': asks first, deletes, and says so. The sessions table and the phone list of
 * shows both use it, so a show is deleted the same way from either. `ask` opens the question.
 */
export function useSessionDeletion(onDeleted: (id: string) => void) {
  const { t } = useTranslation();
  const remove = useDeleteSession();
  const [toDelete, setToDelete] = useState<LiveSessionListItem | null>(null);
  const errorText = (error: unknown, fallback: string) => apiErrorText(error, { networkMessage: t('common.networkError'), fallback });

  const confirm = () => {
    const session = toDelete;
    if (!session || remove.isPending) return;
    remove.mutate(session.id, {
      onSuccess: () => {
        setToDelete(null);
        notifications.show({ color: 'green', message: t('livehub.manage.deleted') });
        onDeleted(session.id);
      },
      onError: (error) => {
        setToDelete(null);
        notifications.show({ color: 'red', title: t('livehub.manage.deleteFailed'), message: errorText(error, t('livehub.manage.deleteFailed')) });
      },
    });
  };

  return {
    ask: (session: LiveSessionListItem) => setToDelete(session),
    prompt: { session: toDelete, isPending: remove.isPending, onCancel: () => setToDelete(null), onConfirm: confirm },
  };
}

interface DeleteSessionPromptProps {
  stackId: string;
  session: LiveSessionListItem | null;
  isPending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export function DeleteSessionPrompt({ stackId, session, isPending, onCancel, onConfirm }: DeleteSessionPromptProps) {
  const { t } = useTranslation();
  return (
    <Modal
      stackId={stackId}
      opened={session !== null}
      onClose={onCancel}
      title={t('livehub.manage.deleteTitle')}
      size="sm"
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md">
        <Text size="sm">{t('livehub.manage.deleteConfirm')}</Text>
        {session && (
          <Text size="sm" fw={600}>
            {session.title}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {t('livehub.manage.deleteNote')}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} data-autofocus>
            {t('livehub.manage.cancel')}
          </Button>
          <Button color="red" onClick={onConfirm} loading={isPending}>
            {t('livehub.manage.deleteYes')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
