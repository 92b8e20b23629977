import { CloseButton } from '@mantine/core';
import { type KeyboardEvent, type MouseEvent, type ReactNode, type SyntheticEvent, useId, useLayoutEffect, useRef } from 'react';
import { useTranslation } from '../i18n';
import classes from './native-dialog.module.css';

interface NativeDialogProps {
  title: ReactNode;
  /** Escape, a tap outside and the close button; none of them work while `closable` is false. */
  onClose: () => void;
  closable: boolean;
  /**
   * md: Mantine's md width (440 px). lg: its lg width (620 px), and the whole screen on a phone, for a
   * long form. sheet: a bottom sheet, the screen's width, rising from the bottom edge (the live show on a phone).
   */
  size?: 'md' | 'lg' | 'sheet';
  children: ReactNode;
}

/**
 * A modal dialog on the browser's own <dialog>, open while mounted. The public pages' dialogs (the
 * bid review, the profile) use it instead of Mantine's Modal, whose focus trap, portal, scroll lock
 * and floating-ui cost a buyer's phone about 29 KB gzip; the browser does all of that itself: focus
 * stays inside, the page behind is inert and read as such, Escape asks to close.
 *
 * The element that opens it gets focus back on close, and the first `data-autofocus` element
 * inside gets it on open. Everything outside the dialog is inert while it is open, so a dropdown
 * inside it must render within it (`comboboxProps={{ withinPortal: false }}`), not in a portal.
 */
export function NativeDialog({ title, onClose, closable, size = 'md', children }: NativeDialogProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const pressedOutside = useRef(false);
  // Read by the browser's own close below, which must not act on a stale value.
  const latest = useRef({ onClose, closable });
  latest.current = { onClose, closable };

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const requestClose = () => {
    if (latest.current.closable) latest.current.onClose();
  };

  return (
    // A tap on the backdrop is the pointer's Escape, which the keyboard has (onCancel).
    <dialog
      ref={ref}
      className={classes.dialog}
      data-size={size}
      aria-labelledby={titleId}
      // While it may not close, the browser ignores Escape altogether (Chromium, Firefox). Without this,
      // Chromium closes a dialog on the second close request with no cancelable 'cancel', and the
      // dialog is off screen until the 'close' below opens it again, a task later.
      closedby={closable ? 'closerequest' : 'none'}
      // Escape on an open dropdown (Mantine marks its target) closes the dropdown only, as in Mantine's Modal.
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Escape' && (event.target as HTMLElement).getAttribute?.('data-mantine-stop-propagation') === 'true') event.preventDefault();
      }}
      // Escape: this component decides, so a dialog that is sending stays open.
      onCancel={(event: SyntheticEvent) => {
        event.preventDefault();
        requestClose();
      }}
      // A browser without `closedby` (Safari) may close a dialog on a second Escape without a
      // cancelable 'cancel'. Only this component's cleanup closes it: open it again at once, then
      // ask to close as for Escape. The parent unmounts it if it may close (before the next paint),
      // and a parent that refuses (a bid already on its way) leaves it on screen.
      onClose={() => {
        const dialog = ref.current;
        // Closed by this component's own cleanup (unmounted, or React's development re-run of effects).
        if (!dialog?.isConnected || dialog.open) return;
        dialog.showModal();
        requestClose();
      }}
      // A press that starts and ends on the backdrop (the <dialog> itself, the content fills its box).
      onMouseDown={(event: MouseEvent) => {
        pressedOutside.current = event.target === event.currentTarget;
      }}
      onClick={(event: MouseEvent) => {
        if (pressedOutside.current && event.target === event.currentTarget) requestClose();
        pressedOutside.current = false;
      }}
    >
      {/* Not a <header>: inside a dialog it would read as a second banner landmark. */}
      <div className={classes.header}>
        <h2 id={titleId} className={classes.title}>
          {title}
        </h2>
        {closable && <CloseButton aria-label={t('common.close')} onClick={requestClose} />}
      </div>
      <div className={classes.body}>{children}</div>
    </dialog>
  );
}
