import { Button, Group, Text } from '@mantine/core';
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { type LiveSessionData, useHeldLiveSession } from '../../api/live';
import { NativeDialog } from '../../components/native-dialog';
import { useTranslation } from '../../i18n';
import { useIsPhoneHub } from '../hub-layout';
import type { QuestionProps } from '../hub-prompts';
import { AutoAdvancePauseButton, autoAdvancePauseError, autoAdvanceText, useAutoAdvance } from '../timer-actions';
import { useNow } from '../use-now';
import classes from './phone-hub.module.css';

/**
 * 'Avance automático' on the phone: the countdown to the next lot (or that it is paused, or on),
 * with 'Pausar' / 'Reanudar' in the thumb's reach. Shown over the camera and at the top of every
 * sheet, so the seller never loses it while she works in one. Nothing when the show has it off.
 */
export function AutoAdvanceStrip({ detail, place }: { detail: LiveSessionData; place: 'stage' | 'sheet' }) {
  const { t } = useTranslation();
  const auto = useAutoAdvance(detail, useNow());
  if (!auto.isOn || !detail.canEdit) return null;
  const isCounting = auto.left !== null && !auto.isPaused;
  const pauseError = autoAdvancePauseError(t, auto);
  return (
    <div className={classes.autoStrip} data-place={place} data-counting={isCounting || undefined} data-testid={`auto-advance-${place}`}>
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Text size="sm" fw={isCounting ? 700 : 500} aria-live={place === 'stage' ? 'polite' : 'off'} style={{ flex: 1, minWidth: 0 }}>
          {autoAdvanceText(t, auto, { short: true })}
        </Text>
        <AutoAdvancePauseButton auto={auto} className={classes.touch} style={{ flex: 'none' }} variant={place === 'stage' ? 'white' : 'light'} />
      </Group>
      {pauseError && (
        <Text size="xs" c={place === 'stage' ? 'red.2' : 'red.8'} role="alert">
          {pauseError}
        </Text>
      )}
    </div>
  );
}

/**
 * The auto-advance countdown pinned at the top of a scrolling window, right under its own sticky
 * header (whose height depends on the title's lines): a phone sheet, or one of the Hub's windows
 * opened from the phone (the picker, the quick auction, the show's editor).
 */
function PinnedAutoAdvance({ detail }: { detail: LiveSessionData }) {
  const pinRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const pin = pinRef.current;
    const header = pin?.parentElement?.previousElementSibling;
    if (!pin || !(header instanceof HTMLElement)) return;
    const place = () => pin.style.setProperty('top', `${header.offsetHeight}px`);
    place();
    const observer = new ResizeObserver(place);
    observer.observe(header);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={pinRef} className={classes.sheetPin}>
      <AutoAdvanceStrip detail={detail} place="sheet" />
    </div>
  );
}

/**
 * In a window of the Hub over the phone Hub: the countdown as the page holds the show (the phone
 * Hub under the window keeps it live), so the seller does not lose it while she adds a lot. Put it
 * first in the window's body; nothing on a desktop, where the timer panel stays in sight.
 */
export function WindowAutoAdvance({ sessionId }: { sessionId: string | null }) {
  const isPhone = useIsPhoneHub();
  const detail = useHeldLiveSession(isPhone ? sessionId : null);
  if (!isPhone || !detail) return null;
  return <PinnedAutoAdvance detail={detail} />;
}

/**
 * A bottom sheet of the phone Hub (the browser's own modal <dialog>, so nothing else on the page
 * takes a tap while it is open), with the auto-advance countdown pinned under its title.
 */
export function PhoneSheet({
  detail,
  title,
  onClose,
  closable = true,
  testId,
  children,
}: {
  detail: LiveSessionData;
  title: ReactNode;
  onClose: () => void;
  closable?: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <NativeDialog title={title} size="sheet" closable={closable} onClose={onClose}>
      <PinnedAutoAdvance detail={detail} />
      <div data-testid={testId}>{children}</div>
    </NativeDialog>
  );
}

/**
 * A question of the phone Hub, itself a <dialog>: it shows over an open sheet (a Mantine window
 * would sit under the sheet's top layer). The safe answer has the focus; Escape and a tap outside
 * give it too, unless the answer is on its way.
 */
export function PhoneQuestion({
  title,
  children,
  cancelLabel,
  confirmLabel,
  confirmColor = 'red',
  isPending = false,
  onCancel,
  onConfirm,
  testId,
}: QuestionProps & { isPending?: boolean; testId: string }) {
  return (
    <NativeDialog title={title} closable={!isPending} onClose={onCancel}>
      <div className={classes.question} data-testid={testId}>
        {children}
        <div className={classes.questionButtons}>
          <Button variant="default" className={classes.touch} onClick={onCancel} disabled={isPending} data-autofocus>
            {cancelLabel}
          </Button>
          <Button color={confirmColor} className={classes.touch} onClick={onConfirm} loading={isPending}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </NativeDialog>
  );
}
