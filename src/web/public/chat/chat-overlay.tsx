import { UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import classes from '../../components/chat/chat.module.css';
import { ChatComposer } from '../../components/chat/chat-composer';
import { ChatLine } from '../../components/chat/chat-line';
import { ChatBoard } from '../../components/chat/chat-panel';
import { ChatProfile } from '../../components/chat/chat-profile';
import type { ChatRoom } from '../../components/chat/use-chat-room';
import { NativeDialog } from '../../components/native-dialog';
import { useTranslation } from '../../i18n';

/** Lines over the video: the newest few, the older ones fading out upward. */
const OVERLAY_LINES = 5;

/**
 * The chat over the video on a phone: the pinned line, the last lines (white with a shadow and a
 * scrim, readable over any picture) and a compact composer. A tap on the lines opens the whole
 * chat as a sheet, where each line has its actions. That tap is a button laid over the lines with
 * a name of its own: a button holding the lines would be named by them, or (named otherwise) not
 * say what it shows (axe's label-content-name-mismatch).
 */
export function ChatOverlayView({ room }: { room: ChatRoom }) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const lines = room.chat.lines.slice(-OVERLAY_LINES);
  const pinned = room.settings?.pinned ?? null;
  const myTag = room.me?.tag ?? null;

  return (
    <div className={classes.overlay} data-testid="chat-overlay">
      {pinned && <ChatLine line={pinned} myTag={myTag} variant="overlay" isPinned />}
      {/* The lines are read as lines; a button laid over them (named, with no text of its own) opens the whole chat. */}
      <div className={classes.overlayLinesWrap}>
        <div className={classes.overlayLines} data-testid="chat-overlay-lines">
          {lines.map((line) => (
            <ChatLine key={line.id} line={line} myTag={myTag} variant="overlay" />
          ))}
        </div>
        <UnstyledButton className={classes.overlayOpen} onClick={() => setOpen(true)} aria-label={t('live.chat.openFull')} data-testid="chat-open" />
      </div>
      {!isOpen && <ChatComposer room={room} variant="overlay" />}
      {isOpen && (
        <NativeDialog title={t('live.chat.sheetTitle')} onClose={() => setOpen(false)} closable size="lg">
          <div className={classes.sheet}>
            <ChatBoard room={room} heading={false} />
          </div>
        </NativeDialog>
      )}
      {!isOpen && <ChatProfile room={room} />}
    </div>
  );
}
