import { Button, Group } from '@mantine/core';
import { useTranslation } from '../../i18n';
import { LazyPart } from '../lazy-part';
import classes from './chat.module.css';
import type { ChatComposerProps } from './chat-composer-form';

const loadForm = () => import('./chat-composer-form').then((m) => m.ChatComposerForm);

/**
 * Where the reader writes, or why they cannot: signed out (sign in and come back), an incomplete
 * profile (complete it here), the show ended (read only), blocked by the seller (no field at all).
 * The field itself (chat-composer-form.tsx) is fetched when the reader may write; until it arrives,
 * a space of its height holds its place.
 */
export function ChatComposer({ room, variant }: ChatComposerProps) {
  const { t } = useTranslation();
  const { access } = room;

  if (access === 'loading') return null;
  if (access === 'ended') {
    return (
      <p className={classes.notice} data-variant={variant} data-testid="chat-ended">
        {t('live.chat.ended')}
      </p>
    );
  }
  if (access === 'signedOut') {
    return (
      <Button variant={variant === 'overlay' ? 'white' : 'light'} size="sm" fullWidth onClick={room.signIn} data-testid="chat-sign-in">
        {t('live.chat.signIn')}
      </Button>
    );
  }
  if (access === 'profile') {
    return (
      <Group gap="xs" wrap="nowrap" justify="space-between" className={classes.notice} data-variant={variant} data-testid="chat-profile">
        <span>{t('live.chat.profile')}</span>
        <Button size="xs" variant={variant === 'overlay' ? 'white' : 'light'} onClick={room.profile.open}>
          {t('live.chat.profileAction')}
        </Button>
      </Group>
    );
  }

  if (room.isBlocked) {
    // Blocked from the seller's shows: no box to type in (the server refuses their lines anyway), and why.
    return (
      <p className={classes.notice} data-variant={variant} data-tone="error" role="status" data-testid="chat-blocked">
        {t('live.chat.blocked')}
      </p>
    );
  }

  return (
    <LazyPart
      load={loadForm}
      props={{ room, variant }}
      loading={<div className={classes.composerLoading} data-variant={variant} data-testid="chat-composer-loading" />}
      failedMessage={t('live.chat.composerLoadFailed')}
    />
  );
}
