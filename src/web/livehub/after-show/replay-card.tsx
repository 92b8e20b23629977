import { Alert, Badge, Button, Group, Loader, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useRef, useState } from 'react';
import type { LiveSessionData } from '../../api/live';
import { type ReplayAnswer, useDeleteReplay, useReplayVisibility, useRetryReplay, useSessionReplay } from '../../api/replays';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { ConfirmWindow } from '../hub-prompts';
import type { SubmitLock } from '../submission';
import { type DeleteStep, nextDeleteStep, replayLength, replayRevision, sendOnce } from './replay-actions';

/** The delete question's place in the Hub's one Modal.Stack (hub-windows.ts). */
const DELETE_WINDOW = 'livehub-replay-delete';

const percent = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 0 });

interface ReplayCardProps {
  detail: LiveSessionData;
  layout?: 'panel' | 'phone';
}

/**
 * 'Repetición' in the show's summary, for its seller's side: being recorded, being made (with its
 * progress, asked every 2 s), ready to watch with hide, publish and delete, failed with its reason
 * and 'Reintentar', or not recorded. Shown once the show has gone live.
 */
export function ReplayCard({ detail, layout = 'panel' }: ReplayCardProps) {
  const { t } = useTranslation();
  const { session } = detail;
  const isPhone = layout === 'phone';
  const query = useSessionReplay(session.id, { revision: replayRevision(session) });
  return (
    <Paper withBorder={!isPhone} p={isPhone ? 'sm' : 'md'} radius={isPhone ? 'lg' : 'md'} data-testid="replay-card">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('livehub.replay.title')}
        </Title>
        {query.data ? (
          <ReplayBody sessionId={session.id} title={session.title} replay={query.data} isPhone={isPhone} />
        ) : query.isError ? (
          <Alert color="red" variant="light">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{apiErrorText(query.error, { networkMessage: t('common.networkError'), fallback: t('livehub.replay.loadFailed') })}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()} loading={query.isFetching}>
                {t('common.retry')}
              </Button>
            </Stack>
          </Alert>
        ) : (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">{t('livehub.replay.loading')}</Text>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** One lock per action, so each button ignores its own double click. */
function useLocks() {
  const visibility = useRef<SubmitLock>({ isLocked: false });
  const remove = useRef<SubmitLock>({ isLocked: false });
  const retry = useRef<SubmitLock>({ isLocked: false });
  return { visibility: visibility.current, remove: remove.current, retry: retry.current };
}

function ReplayBody({ sessionId, title, replay, isPhone }: { sessionId: string; title: string; replay: ReplayAnswer; isPhone: boolean }) {
  const { t } = useTranslation();
  const visibility = useReplayVisibility(sessionId);
  const remove = useDeleteReplay(sessionId);
  const retry = useRetryReplay(sessionId);
  const locks = useLocks();
  const [deleteStep, setDeleteStep] = useState<DeleteStep>('idle');
  // Thumb-sized, full-width buttons on a phone.
  const buttonProps = isPhone ? { fullWidth: true, mih: 44 } : { size: 'sm' as const };
  const mutations = [visibility, remove, retry];
  const failed = mutations.find((m) => m.isError);
  const clearErrors = () => {
    for (const m of mutations) if (m.isError) m.reset();
  };

  const toggleVisibility = () =>
    sendOnce(locks.visibility, (done) => {
      clearErrors();
      visibility.mutate(replay.status === 'hidden' ? 'public' : 'hidden', { onSettled: done });
    });
  const sendRetry = () =>
    sendOnce(locks.retry, (done) => {
      clearErrors();
      retry.mutate(undefined, { onSettled: done });
    });
  const onDelete = (event: 'press' | 'cancel' | 'confirm') => {
    const next = nextDeleteStep(deleteStep, event);
    setDeleteStep(next.step);
    if (next.send)
      sendOnce(locks.remove, (done) => {
        clearErrors();
        remove.mutate(undefined, { onSettled: done });
      });
  };

  const refusal = failed ? (
    <Alert color="red" variant="light" role="alert">
      {apiErrorText(failed.error, { networkMessage: t('common.networkError'), fallback: t('livehub.replay.actionFailed') })}
    </Alert>
  ) : null;

  if (replay.status === 'none') {
    return (
      <Text size="sm" c="dimmed" data-replay-status="none">
        {t('livehub.replay.none')}
      </Text>
    );
  }
  if (replay.status === 'recording') {
    return (
      <Group gap="xs" role="status" data-replay-status="recording">
        <Badge color="red" variant="dot" tt="none">
          {t('livehub.replay.recordingBadge')}
        </Badge>
        <Text size="sm">{t('livehub.replay.recording')}</Text>
      </Group>
    );
  }
  if (replay.status === 'processing') {
    const progress = Math.min(100, Math.max(0, replay.progress));
    return (
      <Stack gap={6} role="status" data-replay-status="processing">
        <Text size="sm">{t('livehub.replay.processing', { progress: percent.format(progress) })}</Text>
        <Progress value={progress} aria-label={t('livehub.replay.progressLabel')} size={isPhone ? 'lg' : 'md'} radius="xl" />
      </Stack>
    );
  }
  if (replay.status === 'failed') {
    return (
      <Stack gap="xs" data-replay-status="failed">
        <Alert color="red" variant="light" title={t('livehub.replay.failed')}>
          {replay.error && <Text size="sm">{replay.error}</Text>}
        </Alert>
        {refusal}
        <Group>
          <Button {...buttonProps} variant="light" onClick={sendRetry} loading={retry.isPending} data-testid="replay-retry">
            {t('livehub.replay.retry')}
          </Button>
        </Group>
      </Stack>
    );
  }

  // 'ready' or 'hidden': the seller watches it either way.
  const isHidden = replay.status === 'hidden';
  const length = replayLength(replay.durationMs);
  const isBusy = visibility.isPending || remove.isPending;
  return (
    <Stack gap="sm" data-replay-status={replay.status}>
      {replay.url && (
        // biome-ignore lint/a11y/useMediaCaption: a show's recording has no captions to offer; its chapters are listed beside it.
        <video
          controls
          playsInline
          preload="metadata"
          poster={replay.posterUrl ?? undefined}
          src={replay.url}
          aria-label={t('livehub.replay.videoLabel', { title })}
          style={{ width: '100%', aspectRatio: '16 / 9', background: '#000', borderRadius: 8, display: 'block' }}
        />
      )}
      <Group gap="xs" wrap="wrap">
        {length && (
          <Text size="sm" fw={600}>
            {t('livehub.replay.length', { length })}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {t('livehub.replay.chapters', { count: replay.chapters.length })}
        </Text>
      </Group>
      {isHidden && (
        <Badge color="gray" variant="light" tt="none" size="lg" style={{ whiteSpace: 'normal', height: 'auto' }}>
          {t('livehub.replay.hiddenNote')}
        </Badge>
      )}
      {refusal}
      <Group gap="xs" wrap="wrap" grow={isPhone}>
        <Button
          {...buttonProps}
          variant="default"
          onClick={toggleVisibility}
          loading={visibility.isPending}
          disabled={remove.isPending}
          data-testid="replay-visibility"
        >
          {isHidden ? t('livehub.replay.publish') : t('livehub.replay.hide')}
        </Button>
        <Button
          {...buttonProps}
          variant="light"
          color="red"
          onClick={() => onDelete('press')}
          loading={remove.isPending}
          disabled={isBusy && !remove.isPending}
          data-testid="replay-delete"
        >
          {t('livehub.replay.delete')}
        </Button>
      </Group>
      <ConfirmWindow
        stackId={DELETE_WINDOW}
        opened={deleteStep === 'asking'}
        title={t('livehub.replay.deleteTitle')}
        cancelLabel={t('livehub.replay.deleteCancel')}
        confirmLabel={t('livehub.replay.deleteConfirm')}
        onCancel={() => onDelete('cancel')}
        onConfirm={() => onDelete('confirm')}
      >
        <Text size="sm">{t('livehub.replay.deleteText')}</Text>
      </ConfirmWindow>
    </Stack>
  );
}
