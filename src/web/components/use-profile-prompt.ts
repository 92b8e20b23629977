import { useCallback, useEffect, useState } from 'react';
import type { Me } from '../../domain/api-types.js';

/** Users already prompted in this page load: closing the modal is respected until the next load. */
const promptedUsers = new Set<string>();

/**
 * 'Completa Tu Perfil' opens by itself once per page load while the profile is incomplete
 * (SPEC §2), and on demand from 'Mi perfil'.
 */
export function useProfilePrompt(me: Me) {
  const [opened, setOpened] = useState(false);
  const userId = me.user.id;
  const isIncomplete = !me.profileComplete;

  useEffect(() => {
    if (isIncomplete && !promptedUsers.has(userId)) {
      promptedUsers.add(userId);
      setOpened(true);
    }
  }, [isIncomplete, userId]);

  const open = useCallback(() => setOpened(true), []);
  const close = useCallback(() => setOpened(false), []);
  return { opened, open, close };
}
