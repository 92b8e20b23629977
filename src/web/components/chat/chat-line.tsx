import { ActionIcon } from '@mantine/core';
import type { ChatMessage } from '../../../domain/chat.js';
import { useTranslation } from '../../i18n';
import classes from './chat.module.css';
import { systemText } from './system-text';

interface ChatLineProps {
  line: ChatMessage;
  /** The reader's own tag in this show ("tú"), null signed out. */
  myTag: string | null;
  /** Over the video: white text with a shadow; in the panel: the page's colours. */
  variant: 'overlay' | 'panel';
  /** Opens the line's actions (Reportar, and the moderators' tools); absent when there are none. */
  onActions?: (line: ChatMessage) => void;
  /** The pinned line, shown above the list. */
  isPinned?: boolean;
}

/**
 * One line of the chat. Its text is a React text node, never HTML: what anyone typed (tags, links)
 * shows as typed and nothing in it is clickable.
 */
export function ChatLine({ line, myTag, variant, onActions, isPinned = false }: ChatLineProps) {
  const { t } = useTranslation();
  const isMine = myTag !== null && line.authorTag === myTag;
  const name = line.authorName ?? '';
  return (
    <div
      className={classes.line}
      data-variant={variant}
      data-kind={line.kind}
      data-pinned={isPinned || undefined}
      data-mine={isMine || undefined}
      data-testid={isPinned ? 'chat-pinned' : 'chat-line'}
      data-message-id={line.id}
      data-only-author={line.onlyAuthor || undefined}
    >
      <div className={classes.lineBody}>
        {isPinned && <span className={classes.tag}>{t('live.chat.pinned')}</span>}
        {line.kind === 'announcement' && <span className={classes.tag}>{t('live.chat.announcement')}</span>}
        {line.kind === 'system' ? (
          <span className={classes.systemText}>
            {line.system?.event === 'lotSold' && <span className={classes.author}>{line.system.auctionName} · </span>}
            {systemText(line, t)}
          </span>
        ) : (
          <>
            <span className={classes.author}>
              {name}
              {isMine && <span className={classes.you}> ({t('live.chat.you')})</span>}
              {line.authorIsModerator && <span className={classes.modBadge}>{t('live.chat.moderator')}</span>}
            </span>{' '}
            <span className={classes.text} data-testid="chat-text">
              {line.text}
            </span>
          </>
        )}
        {/* A muted word in it: its author reads it as sent, the show's moderators see it held back (to act on it). */}
        {line.onlyAuthor && (
          <span className={classes.onlyYou} data-testid="chat-only-author">
            {isMine ? t('live.chat.onlyYou') : t('live.chat.heldBack')}
          </span>
        )}
      </div>
      {onActions && line.kind !== 'system' && (
        <ActionIcon
          variant="subtle"
          color={variant === 'overlay' ? 'gray.0' : 'gray'}
          size="md"
          radius="xl"
          className={classes.lineMenu}
          aria-label={t('live.chat.actions.open', { name })}
          onClick={() => onActions(line)}
          data-testid="chat-line-actions"
        >
          <DotsIcon />
        </ActionIcon>
      )}
    </div>
  );
}

function DotsIcon() {
  return (
    <svg width={18} height={18} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
      <circle cx="5" cy="12" r="2" />
      <circle cx="12" cy="12" r="2" />
      <circle cx="19" cy="12" r="2" />
    </svg>
  );
}
