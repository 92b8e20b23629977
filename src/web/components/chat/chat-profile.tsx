import { lazy, Suspense } from 'react';
import type { ChatRoom } from './use-chat-room';

// The profile form is not in the page's first paint: it loads the first time a reader opens it.
const ProfileModal = lazy(() => import('../profile-modal').then((m) => ({ default: m.ProfileModal })));

/** 'Completa Tu Perfil', opened from the chat (the composer's prompt, or a PROFILE_INCOMPLETE refusal). */
export function ChatProfile({ room }: { room: ChatRoom }) {
  if (!room.profile.opened) return null;
  return (
    <Suspense fallback={null}>
      <ProfileModal opened onClose={room.profile.close} me={room.profile.me} />
    </Suspense>
  );
}
