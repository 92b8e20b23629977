import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { startSignIn } from '../../api/auth';
import { isApiError } from '../../api/client';
import { refreshAlertLists } from '../../api/follows';
import { fetchMe, meKeys } from '../../api/me';
import { useErrorText } from '../../lib/use-error-text';

/**
 * One tap that turns something on or off for the signed-in buyer (Seguir, Avísame): the button
 * changes at once, and changes back with a Spanish notice if the server refuses. Signed out, the tap
 * signs in first and comes back to this page. `onTurnedOn` runs after a confirmed "on", only then.
 */
export function useOptimisticToggle<T extends { isOn: boolean }>(opts: {
  value: T;
  optimistic: (current: T, next: boolean) => T;
  send: (next: boolean) => Promise<T | null>;
  failedText: (next: boolean) => string;
  onTurnedOn?: () => void;
}) {
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const [value, setValue] = useState(opts.value);
  const [isSending, setSending] = useState(false);
  const latest = useRef(opts);
  latest.current = opts;

  // A newer answer from the page (a refetch) wins over what this button last knew.
  const { isOn } = opts.value;
  const incoming = JSON.stringify(opts.value);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `incoming` stands for the value's contents
  useEffect(() => {
    setValue(latest.current.value);
  }, [incoming, isOn]);

  const toggle = useCallback(async () => {
    const me = await queryClient.fetchQuery({ queryKey: meKeys.all, queryFn: ({ signal }) => fetchMe(signal), staleTime: 60_000 }).catch(() => undefined);
    if (me === null) {
      startSignIn();
      return;
    }
    const before = value;
    const next = !before.isOn;
    setValue(latest.current.optimistic(before, next));
    setSending(true);
    try {
      const answer = await latest.current.send(next);
      if (answer) setValue(answer);
      void refreshAlertLists(queryClient);
      if (next) latest.current.onTurnedOn?.();
    } catch (error) {
      setValue(before);
      if (isApiError(error) && error.status === 401) {
        startSignIn();
        return;
      }
      const reason = errorText(error);
      notifications.show({ color: 'red', title: latest.current.failedText(next), message: reason, autoClose: 8_000 });
    } finally {
      setSending(false);
    }
  }, [queryClient, value, errorText]);

  return { value, toggle, isSending };
}
