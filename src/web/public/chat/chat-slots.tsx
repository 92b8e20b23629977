import { ChatBoard } from '../../components/chat/chat-panel';
import { useChatRoom } from '../../components/chat/use-chat-room';
import { ChatOverlayView } from './chat-overlay';

/**
 * The live page's chat, where the page places it: over the video on a phone (`ChatOverlay`) and in
 * the side column on wider screens (`ChatPanel`).
 */
export interface ChatSlotProps {
  sessionId: string;
  /** The session ended: the chat replays, read-only. */
  isEnded: boolean;
}

/** The last lines over the video, fading upward, and the composer (phone). */
export function ChatOverlay({ sessionId, isEnded }: ChatSlotProps) {
  const room = useChatRoom(sessionId, isEnded);
  return <ChatOverlayView room={room} />;
}

/** The whole chat with its history, composer and moderation tools (wide screens). */
export function ChatPanel({ sessionId, isEnded }: ChatSlotProps) {
  const room = useChatRoom(sessionId, isEnded);
  return <ChatBoard room={room} />;
}
