import { Button } from '@mantine/core';
import { useLayoutEffect, useRef, useState } from 'react';
import type { ChatMessage } from '../../../domain/chat.js';
import { useTranslation } from '../../i18n';
import { Spinner } from '../spinner';
import classes from './chat.module.css';
import { ChatLine } from './chat-line';
import type { ChatRoom } from './use-chat-room';

/** Within this many pixels of an edge counts as at it (top: load earlier; bottom: follow new lines). */
const EDGE_PX = 48;

interface ChatListProps {
  room: ChatRoom;
  onActions?: (line: ChatMessage) => void;
}

/**
 * The whole chat, newest at the bottom: it follows new lines while the reader is at the bottom,
 * and offers 'Ver mensajes nuevos' when they have scrolled up. Reaching the top loads the page
 * before (or 'Cargar mensajes anteriores'), keeping the reader's place.
 */
export function ChatList({ room, onActions }: ChatListProps) {
  const { t } = useTranslation();
  const { chat } = room;
  const ref = useRef<HTMLDivElement>(null);
  const isAtBottom = useRef(true);
  /** The height before an earlier page was added, to keep the same lines in view. */
  const heightBefore = useRef<number | null>(null);
  const [hasUnseen, setUnseen] = useState(false);
  const lines = chat.lines;
  const lastId = lines.at(-1)?.id;
  const firstId = lines[0]?.id;

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the first or last line changes
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (heightBefore.current !== null) {
      el.scrollTop += el.scrollHeight - heightBefore.current;
      heightBefore.current = null;
      return;
    }
    if (isAtBottom.current) el.scrollTop = el.scrollHeight;
    else setUnseen(true);
  }, [lastId, firstId]);

  const loadEarlier = () => {
    if (!chat.hasEarlier || chat.isLoadingEarlier) return;
    heightBefore.current = ref.current?.scrollHeight ?? null;
    chat.loadEarlier();
  };

  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    isAtBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < EDGE_PX;
    if (isAtBottom.current) setUnseen(false);
    if (el.scrollTop < EDGE_PX) loadEarlier();
  };

  const toBottom = () => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
    isAtBottom.current = true;
    setUnseen(false);
  };

  const myTag = room.me?.tag ?? null;
  return (
    <div className={classes.listWrap}>
      {/* Focusable so a keyboard can scroll it (it may hold no button at all, signed out). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <div ref={ref} className={classes.list} onScroll={onScroll} role="log" aria-label={t('live.chat.listLabel')} data-testid="chat-list" tabIndex={0}>
        {chat.query.isError && lines.length === 0 ? (
          <p className={classes.empty} role="alert">
            {t('live.chat.loadFailed')}{' '}
            <Button size="compact-xs" variant="subtle" onClick={() => void chat.query.refetch()}>
              {t('common.retry')}
            </Button>
          </p>
        ) : chat.query.isPending ? (
          <Spinner size="sm" mx="auto" my="md" label={t('common.loading')} />
        ) : (
          <>
            {chat.hasEarlier ? (
              <Button size="compact-xs" variant="subtle" mx="auto" loading={chat.isLoadingEarlier} onClick={loadEarlier} data-testid="chat-load-earlier">
                {t('live.chat.loadEarlier')}
              </Button>
            ) : (
              lines.length > 0 && <p className={classes.start}>{t('live.chat.start')}</p>
            )}
            {lines.length === 0 && <p className={classes.empty}>{t('live.chat.empty')}</p>}
            {lines.map((line) => (
              <ChatLine key={line.id} line={line} myTag={myTag} variant="panel" onActions={onActions} />
            ))}
          </>
        )}
      </div>
      {hasUnseen && (
        <Button size="compact-xs" radius="xl" className={classes.unseen} onClick={toBottom} data-testid="chat-new-lines">
          {t('live.chat.newLines')}
        </Button>
      )}
    </div>
  );
}
