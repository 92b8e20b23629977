import { Alert } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';

/** How long a done action's confirmation stays. */
const NOTICE_MS = 6000;

export interface ActionNotice {
  id: number;
  message: string;
  tone: 'done' | 'error';
}

/**
 * What a moderator's action on the chat answered (done, or why not), said where the chat is: in
 * the panel, or in the phone's sheet, a modal dialog above the page's toasts, which would hide
 * them. A confirmation leaves by itself; an error stays until the next action.
 */
export function useActionNotice() {
  const [notice, setNotice] = useState<ActionNotice | null>(null);
  const show = useCallback((message: string, tone: ActionNotice['tone'] = 'done') => {
    setNotice((previous) => ({ id: (previous?.id ?? 0) + 1, message, tone }));
  }, []);
  useEffect(() => {
    if (!notice || notice.tone === 'error') return;
    const timer = setTimeout(() => setNotice((current) => (current?.id === notice.id ? null : current)), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  return { notice, show, clear: () => setNotice(null) };
}

/** The region stays mounted, so a screen reader announces each notice as it appears. */
export function ActionNoticeLine({ notice }: { notice: ActionNotice | null }) {
  return (
    <div role="status" aria-live="polite" data-testid="chat-action-notice-region">
      {notice && (
        <Alert key={notice.id} color={notice.tone === 'error' ? 'red' : 'green'} variant="light" p={6} data-testid="chat-action-notice" data-tone={notice.tone}>
          {notice.message}
        </Alert>
      )}
    </div>
  );
}
