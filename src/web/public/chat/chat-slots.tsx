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
export function ChatOverlay(_props: ChatSlotProps) {
  return null;
}

/** The whole chat with its history, composer and moderation tools (wide screens). */
export function ChatPanel(_props: ChatSlotProps) {
  return null;
}
