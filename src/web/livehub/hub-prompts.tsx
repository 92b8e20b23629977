import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n';

/** A yes-or-no question of the Hub, as the wide window (ConfirmWindow) and the phone's dialog (PhoneQuestion) ask it. */
export interface QuestionProps {
  title: string;
  children: ReactNode;
  /** The safe answer: the button with focus, Escape, the close button and a click outside. */
  cancelLabel: string;
  confirmLabel: string;
  confirmColor?: string;
  onCancel: () => void;
  onConfirm: () => void;
}

interface ConfirmWindowProps extends QuestionProps {
  stackId: string;
  opened: boolean;
}

/** A small question over the window that asked it, in the Hub's stack (Escape answers it alone). */
export function ConfirmWindow(props: ConfirmWindowProps) {
  const { t } = useTranslation();
  return (
    <Modal
      stackId={props.stackId}
      opened={props.opened}
      onClose={props.onCancel}
      title={props.title}
      size="md"
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md">
        {props.children}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={props.onCancel} data-autofocus>
            {props.cancelLabel}
          </Button>
          <Button color={props.confirmColor ?? 'red'} onClick={props.onConfirm}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Closing a form with unsaved changes (Escape, the close button, a click outside, 'Cancelar') asks
 * first. `requestClose` is the window's onClose; `prompt` goes to DiscardPrompt.
 */
export function useDiscardGuard(opts: { opened: boolean; isDirty: boolean; onClose: () => void }) {
  const { opened, isDirty, onClose } = opts;
  const [isAsking, setAsking] = useState(false);
  useEffect(() => {
    if (!opened) setAsking(false);
  }, [opened]);
  // Read when the window is asked to close, so a keystroke's render is enough (no effect in between).
  const dirtyRef = useRef(isDirty);
  dirtyRef.current = isDirty;
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const requestClose = useCallback(() => {
    if (dirtyRef.current) setAsking(true);
    else closeRef.current();
  }, []);
  const prompt = {
    opened: opened && isAsking,
    onKeep: () => setAsking(false),
    onDiscard: () => {
      setAsking(false);
      onClose();
    },
  };
  return { requestClose, prompt };
}

export function DiscardPrompt({ stackId, opened, onKeep, onDiscard }: { stackId: string; opened: boolean; onKeep: () => void; onDiscard: () => void }) {
  const { t } = useTranslation();
  return (
    <ConfirmWindow
      stackId={stackId}
      opened={opened}
      title={t('livehub.discard.title')}
      cancelLabel={t('livehub.discard.keepEditing')}
      confirmLabel={t('livehub.discard.confirm')}
      onCancel={onKeep}
      onConfirm={onDiscard}
    >
      <Text size="sm">{t('livehub.discard.text')}</Text>
    </ConfirmWindow>
  );
}

/**
 * 'Esta sesión ya terminó. ¿Abrirla de nuevo?': asked before a change that would reopen an ended
 * session (Iniciar, Establecer actual, a quick auction on it), or after the server answered
 * SESSION_ENDED because someone ended it meanwhile. `ask` resolves with the answer.
 */
export function useAskReopen() {
  const resolver = useRef<((yes: boolean) => void) | null>(null);
  const [opened, setOpened] = useState(false);
  const ask = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        resolver.current?.(false);
        resolver.current = resolve;
        setOpened(true);
      }),
    [],
  );
  const answer = useCallback((yes: boolean) => {
    setOpened(false);
    const resolve = resolver.current;
    resolver.current = null;
    resolve?.(yes);
  }, []);
  // A question left open when the window goes away is a no.
  useEffect(() => () => resolver.current?.(false), []);
  return { ask, prompt: { opened, onAnswer: answer } };
}

export function ReopenPrompt({ stackId, opened, onAnswer }: { stackId: string; opened: boolean; onAnswer: (yes: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <ConfirmWindow
      stackId={stackId}
      opened={opened}
      title={t('livehub.reopen.title')}
      cancelLabel={t('livehub.reopen.cancel')}
      confirmLabel={t('livehub.reopen.confirm')}
      confirmColor="martillo"
      onCancel={() => onAnswer(false)}
      onConfirm={() => onAnswer(true)}
    >
      <Text size="sm">{t('livehub.reopen.text')}</Text>
    </ConfirmWindow>
  );
}
