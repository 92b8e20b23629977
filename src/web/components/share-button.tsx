import { Button, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../i18n';
import { ChatIcon, ShareIcon } from './icons';
import { NativeDialog } from './native-dialog';

export interface ShareButtonProps {
  /** What is shared: a show's title, an auction's name, a seller's name. */
  title: string;
  /** The message that goes with the link; the title when absent. */
  text?: string;
  /** The page's address, absolute or a path of this site ('/live/…'). */
  url: string;
  /** Drawn as a plain button with this class (the phone show's pills) instead of Mantine's. */
  className?: string;
}

/** The address to share: absolute, on this site's origin when a path was given. */
export function absoluteUrl(url: string): string {
  return typeof window === 'undefined' ? url : new URL(url, window.location.origin).href;
}

/** A wa.me link that opens WhatsApp with the message and the address ready to send to any chat. */
export function whatsappShareLink(message: string, url: string): string {
  return `https://wa.me/?text=${encodeURIComponent(`${message}\n${url}`)}`;
}

/**
 * *Compartir*: the phone's own share sheet (`navigator.share`: WhatsApp, Messenger, anything the
 * buyer has) where there is one; elsewhere (most desktop browsers) a small dialog with a WhatsApp
 * link and *Copiar enlace*, on the browser's own <dialog> (no Popover: floating-ui would cost a
 * buyer's phone about 29 KB gzip). The preview the chat shows comes from the page's og: tags (server).
 */
export function ShareButton({ title, text, url, className }: ShareButtonProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const address = absoluteUrl(url);
  const message = text ?? title;

  const share = async () => {
    if (typeof navigator !== 'undefined' && typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, text: message, url: address });
        return;
      } catch (err) {
        // The buyer closed the sheet: nothing to do. Any other refusal falls back to the menu.
        if ((err as { name?: string }).name === 'AbortError') return;
      }
    }
    setCopy('idle');
    setOpened(true);
  };

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(address);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };

  const label = t('share.label', { title });
  const trigger = className ? (
    <button type="button" className={className} onClick={share} aria-label={label} aria-haspopup="dialog" data-testid="share-button">
      <ShareIcon size={18} />
      {t('share.button')}
    </button>
  ) : (
    <Button variant="light" leftSection={<ShareIcon />} w="fit-content" onClick={share} aria-label={label} aria-haspopup="dialog" data-testid="share-button">
      {t('share.button')}
    </Button>
  );

  return (
    <>
      {trigger}
      {opened && (
        <NativeDialog title={t('share.menuTitle')} onClose={() => setOpened(false)} closable>
          <Stack gap="sm" data-testid="share-menu">
            <Button
              component="a"
              href={whatsappShareLink(message, address)}
              target="_blank"
              rel="noopener noreferrer"
              color="green"
              leftSection={<ChatIcon />}
              onClick={() => setOpened(false)}
              data-autofocus
              data-testid="share-whatsapp"
            >
              {t('share.whatsapp')}
            </Button>
            <Button variant="default" onClick={copyLink} data-testid="share-copy">
              {copy === 'copied' ? t('share.copied') : t('share.copy')}
            </Button>
            {copy === 'failed' && (
              <Text size="sm" role="status" style={{ overflowWrap: 'anywhere', userSelect: 'all' }}>
                {t('share.copyFailed')} {address}
              </Text>
            )}
            <VisuallyHidden role="status">{copy === 'copied' ? t('share.copied') : ''}</VisuallyHidden>
          </Stack>
        </NativeDialog>
      )}
    </>
  );
}
