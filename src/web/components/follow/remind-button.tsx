// placeholder: the store helper's version replaces this
import { Button } from '@mantine/core';
import { useState } from 'react';
import { startSignIn } from '../../api/auth';
import { api, isApiError } from '../../api/client';
import { useTranslation } from '../../i18n';

/** *Avísame*: bookmarks a scheduled show (POST/DELETE /api/live-sessions/{id}/reminder); signed out, it signs in first. */
export function RemindButton({ sessionId, reminded = false, title }: { sessionId: string; reminded?: boolean; title: string }) {
  const { t } = useTranslation();
  const [isOn, setOn] = useState(reminded);
  const [isBusy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const toggle = async () => {
    setBusy(true);
    setFailed(false);
    const url = `/api/live-sessions/${encodeURIComponent(sessionId)}/reminder`;
    try {
      if (isOn) await api.del<unknown>(url);
      else await api.post<unknown>(url);
      setOn(!isOn);
    } catch (error) {
      if (isApiError(error) && error.status === 401) startSignIn();
      else setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="compact-md"
      variant={isOn ? 'light' : 'filled'}
      loading={isBusy}
      aria-pressed={isOn}
      aria-label={`${isOn ? t('home.reminded') : t('home.remind')}: ${title}`}
      color={failed ? 'red' : undefined}
      onClick={() => void toggle()}
      data-testid="remind-button"
    >
      {isOn ? t('home.reminded') : t('home.remind')}
    </Button>
  );
}
