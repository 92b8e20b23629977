import { Alert, Badge, Button, Group, Loader, NativeSelect, Paper, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { LiveSessionListItem } from '../../domain/live.js';
import type { SessionStatus } from '../../domain/live-public.js';
import { BroadcastIcon } from '../components/icons';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { formatDate } from '../lib/dates';

export const STATUS_COLORS: Record<SessionStatus, string> = { scheduled: 'blue', live: 'red', paused: 'yellow', ended: 'gray' };

export function SessionStatusBadge({ status }: { status: SessionStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status]} variant={status === 'live' ? 'filled' : 'light'} tt="none" data-status={status}>
      {t(`livehub.status.${status}`)}
    </Badge>
  );
}

interface SessionBarProps {
  sessions: LiveSessionListItem[] | undefined;
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
  loadedId: string | null;
  /** The loaded session's title and status, once its detail is here. */
  loaded: { title: string; status: SessionStatus } | null;
  onLoad: (id: string) => void;
}

/** The session selector, 'Cargar' and the status readout (SPEC §2). */
export function SessionBar({ sessions, isLoading, error, onRetry, loadedId, loaded, onLoad }: SessionBarProps) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState(loadedId ?? '');
  // A session loaded from elsewhere (the URL, 'Crear', the table) shows as the selection too.
  useEffect(() => {
    if (loadedId) setSelected(loadedId);
  }, [loadedId]);

  const options = (sessions ?? []).map((s) => ({ value: s.id, label: t('livehub.bar.option', { title: s.title, date: formatDate(s.scheduledAt) }) }));
  if (loadedId && loaded && !options.some((o) => o.value === loadedId)) options.push({ value: loadedId, label: loaded.title });
  const isEmpty = !isLoading && !error && options.length === 0;

  return (
    <Paper radius="lg" p="md" component="section" aria-labelledby="livehub-session-bar">
      <Text id="livehub-session-bar" fw={700} size="sm" mb="xs">
        {t('livehub.sessionsTitle')}
      </Text>
      {error ? (
        <Alert color="red" variant="light" role="alert" mb="sm">
          <Group justify="space-between" gap="xs">
            <Text size="sm">{apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('livehub.bar.loadFailed') })}</Text>
            <Button size="xs" variant="light" color="red" onClick={onRetry}>
              {t('common.retry')}
            </Button>
          </Group>
        </Alert>
      ) : null}
      {isEmpty ? (
        <Group gap="xs" c="dimmed" role="status">
          <BroadcastIcon size={20} />
          <Text size="sm">{t('livehub.noSessions')}</Text>
        </Group>
      ) : (
        <Group align="flex-end" gap="sm" wrap="wrap">
          <NativeSelect
            label={t('livehub.bar.label')}
            value={selected}
            onChange={(e) => setSelected(e.currentTarget.value)}
            data={[{ value: '', label: isLoading ? t('livehub.bar.loading') : t('livehub.bar.placeholder'), disabled: true }, ...options]}
            disabled={isLoading}
            rightSection={isLoading ? <Loader size={14} /> : undefined}
            style={{ flex: '1 1 240px', minWidth: 0 }}
          />
          <Button onClick={() => selected && onLoad(selected)} disabled={!selected || isLoading}>
            {t('livehub.bar.load')}
          </Button>
          <Group gap={6} role="status" aria-live="polite" wrap="nowrap">
            <Text size="sm" c="dimmed">
              {t('livehub.bar.statusLabel')}:
            </Text>
            {loaded ? (
              <SessionStatusBadge status={loaded.status} />
            ) : (
              <Text size="sm" c="dimmed">
                {t('livehub.bar.noneLoaded')}
              </Text>
            )}
          </Group>
        </Group>
      )}
    </Paper>
  );
}
