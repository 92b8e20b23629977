import { Button, Checkbox, Group, TextInput, VisuallyHidden } from '@mantine/core';
import { type FormEvent, useId } from 'react';
import { CHAT_MIN_INTERVAL_SECONDS } from '../../../domain/chat.js';
import { useTranslation } from '../../i18n';
import { formatDate } from '../../lib/dates';
import classes from './chat.module.css';
import type { ChatRoom } from './use-chat-room';

export interface ChatComposerProps {
  room: ChatRoom;
  variant: 'overlay' | 'panel';
}

/** The counter shows from this many characters before the limit. */
const COUNTER_FROM = 40;

/**
 * The field a reader who may write types in (chat-composer.tsx decides who may). Muted and slow
 * mode are said above the field; a refused line stays in it, with why. Its code (Mantine's inputs,
 * and the moderators' announcement box) is fetched only for a reader who may write: a visitor who
 * is signed out only reads, and the live page's first load carries none of it.
 */
export function ChatComposerForm({ room, variant }: ChatComposerProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const noticeId = useId();
  const { composer } = room;
  const standing = standingText(room, t);
  const problem = composer.problem ? t(`live.chat.problem.${composer.problem}`, { max: composer.max }) : null;
  const refusal = composer.refusal ? refusalText(composer.refusal, room, t) : null;
  // Muted outranks a problem with the field: nothing typed could be sent anyway.
  const isHeld = room.isMuted;
  const shownProblem = isHeld ? null : problem;
  const notice = refusal ?? shownProblem ?? standing;
  const isNearLimit = composer.length >= composer.max - COUNTER_FROM;
  const isOver = composer.length > composer.max;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    composer.send();
  };

  return (
    <form className={classes.composer} data-variant={variant} onSubmit={onSubmit} data-testid="chat-composer">
      {notice && (
        <p
          id={noticeId}
          className={classes.notice}
          data-variant={variant}
          data-tone={refusal || shownProblem ? 'error' : 'info'}
          role={refusal || shownProblem ? 'alert' : 'status'}
          data-testid={refusal ? 'chat-refusal' : shownProblem ? 'chat-problem' : 'chat-standing'}
        >
          {notice}
        </p>
      )}
      {room.isModerator && (
        <Checkbox
          size="xs"
          label={t('live.chat.moderation.announce')}
          checked={composer.isAnnouncement}
          onChange={(event) => composer.setAnnouncement(event.currentTarget.checked)}
          className={variant === 'overlay' ? classes.overlayAnnounce : undefined}
          data-testid="chat-announce"
        />
      )}
      <Group gap={6} wrap="nowrap" align="center">
        <TextInput
          id={inputId}
          flex={1}
          size={variant === 'overlay' ? 'sm' : 'md'}
          radius="xl"
          value={composer.text}
          onChange={(event) => composer.setText(event.currentTarget.value)}
          placeholder={composer.isAnnouncement ? t('live.chat.announcePlaceholder') : t('live.chat.placeholder')}
          aria-label={t('live.chat.inputLabel')}
          aria-describedby={notice ? noticeId : undefined}
          aria-invalid={Boolean(shownProblem || isOver) || undefined}
          autoComplete="off"
          enterKeyHint="send"
          classNames={variant === 'overlay' ? { input: classes.overlayInput } : undefined}
          data-testid="chat-input"
          rightSectionWidth={isNearLimit ? 64 : undefined}
          rightSection={
            isNearLimit ? (
              <span className={classes.counter} data-over={isOver || undefined} data-testid="chat-counter">
                <span aria-hidden="true">{t('live.chat.counter', { used: composer.length, max: composer.max })}</span>
                <VisuallyHidden>{t('live.chat.counterLabel', { used: composer.length, max: composer.max })}</VisuallyHidden>
              </span>
            ) : null
          }
        />
        <Button type="submit" radius="xl" size={variant === 'overlay' ? 'sm' : 'md'} loading={composer.isSending} data-testid="chat-send">
          {t('live.chat.send')}
        </Button>
      </Group>
    </form>
  );
}

/**
 * The server's refusal in words. One for going too fast says why (the 2-second pace, slow mode,
 * too many lines from the reader's network) and counts down to when they can write again; it
 * leaves by itself then, and what they typed is still in the field.
 */
function refusalText(refusal: NonNullable<ChatRoom['composer']['refusal']>, room: ChatRoom, t: ReturnType<typeof useTranslation>['t']): string {
  if (refusal.until === undefined) return refusal.message || t('live.chat.sendFailed');
  const reason =
    refusal.code === 'CHAT_SLOW_MODE' && room.slowModeSeconds > 0
      ? t('live.chat.refusedSlowMode', { seconds: room.slowModeSeconds })
      : refusal.code === 'CHAT_ADDRESS_LIMITED'
        ? t('live.chat.refusedAddress')
        : t('live.chat.refusedTooFast', { seconds: CHAT_MIN_INTERVAL_SECONDS });
  return `${reason} ${t('live.chat.wait', { seconds: Math.max(1, room.waitSeconds) })}`;
}

/** Muted, waiting or slow mode, in that order: what holds the reader's next line. */
function standingText(room: ChatRoom, t: ReturnType<typeof useTranslation>['t']): string | null {
  if (room.isMuted) {
    return room.mutedUntil == null ? t('live.chat.mutedToEnd') : t('live.chat.mutedUntil', { time: formatDate(room.mutedUntil, 'HH:mm') });
  }
  if (room.waitSeconds > 0) return t('live.chat.wait', { seconds: room.waitSeconds });
  if (room.slowModeSeconds > 0) return t('live.chat.slowMode', { seconds: room.slowModeSeconds });
  return null;
}
