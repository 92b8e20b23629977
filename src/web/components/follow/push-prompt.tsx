import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useState } from 'react';
import { useTranslation } from '../../i18n';
import { enablePush, type PushState, readPushState, shouldOfferPush } from '../../lib/push';
import { NativeDialog } from '../native-dialog';
import './strings';

/** Once per page visit: a buyer who said "Ahora no" is not asked again at the next tap. */
let offeredThisVisit = false;

/**
 * After a confirmed *Seguir* or *Avísame* (never on page load): offers alerts on this phone, when
 * turning them on can still work. Render `prompt`; call `offer()` after the tap succeeded.
 */
export function usePushOffer() {
  const [state, setState] = useState<PushState | null>(null);
  const offer = useCallback(() => {
    if (offeredThisVisit) return;
    void readPushState().then((read) => {
      if (!shouldOfferPush(read) || offeredThisVisit) return;
      offeredThisVisit = true;
      setState(read);
    });
  }, []);
  const prompt = state && <PushPrompt initial={state} onClose={() => setState(null)} />;
  return { offer, prompt };
}

/** ask: what is sent and the button; denied: the question was refused or closed without an answer. */
type Step = 'ask' | 'needsInstall' | 'working' | 'failed' | 'denied';

/** The sheet: what is sent and *Activar avisos*; on an iPhone's Safari, how to add the app first. */
export function PushPrompt({ initial, onClose }: { initial: PushState; onClose: () => void }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>(initial === 'needsInstall' ? 'needsInstall' : 'ask');

  const enable = async () => {
    setStep('working');
    try {
      const next = await enablePush();
      if (next === 'on') {
        notifications.show({ color: 'green', message: t('pushPrompt.enabled'), autoClose: 6_000 });
        onClose();
        return;
      }
      setStep('denied');
    } catch {
      setStep('failed');
    }
  };

  if (step === 'needsInstall')
    return (
      <NativeDialog title={t('pushPrompt.iosTitle')} onClose={onClose} closable size="sheet">
        <Stack gap="sm" data-testid="push-prompt" data-step="needsInstall">
          <Text>{t('pushPrompt.iosText')}</Text>
          <Text size="sm">{t('pushPrompt.iosSteps')}</Text>
          <Button onClick={onClose} data-autofocus>
            {t('pushPrompt.ok')}
          </Button>
        </Stack>
      </NativeDialog>
    );

  const isDone = step === 'denied';
  return (
    <NativeDialog title={t('pushPrompt.title')} onClose={onClose} closable={step !== 'working'} size="sheet">
      <Stack gap="sm" data-testid="push-prompt" data-step={step}>
        {isDone ? (
          <Text role="status">{t('pushPrompt.denied')}</Text>
        ) : (
          <>
            <Text>{t('pushPrompt.intro')}</Text>
            <Text size="sm" c="dimmed">
              {t('pushPrompt.privacy')}
            </Text>
            {step === 'failed' && (
              <Text c="red.8" size="sm" role="alert">
                {t('pushPrompt.failed')}
              </Text>
            )}
          </>
        )}
        {isDone ? (
          <Button onClick={onClose} data-autofocus>
            {t('pushPrompt.ok')}
          </Button>
        ) : (
          <Group grow>
            <Button variant="default" onClick={onClose} disabled={step === 'working'}>
              {t('pushPrompt.later')}
            </Button>
            <Button onClick={() => void enable()} loading={step === 'working'} data-autofocus data-testid="enable-push">
              {t('pushPrompt.enable')}
            </Button>
          </Group>
        )}
      </Stack>
    </NativeDialog>
  );
}
