import { Button, Group, Text } from '@mantine/core';
import { Suspense, useState } from 'react';
import { isApiError } from '../../api/client';
import { type ClipLink, isClipExpired, useClipLink } from '../../api/replay-viewing';
import { useRetryableLazy } from '../../components/lazy-part';
import { LoadErrorBoundary, LoadFailed } from '../../components/load-error-boundary';
import { addPageStrings, useTranslation } from '../../i18n';
import purchasesStrings from '../../i18n/es-MX.json?section=purchases';

// The pay page shows this button too: its words come with it (i18n/parts.ts).
addPageStrings(purchasesStrings);

const loadDialog = () => import('./video-receipt-dialog').then((m) => m.VideoReceiptDialog);

/** The address to open: the one held while it lasts, else a new one (it expires an hour after it was asked). */
export async function clipToOpen(held: ClipLink | undefined, refetch: () => Promise<{ data?: ClipLink }>, now: number): Promise<ClipLink | null> {
  if (held && !isClipExpired(held, now)) return held;
  // A refetch that failed still holds the spent address: no use opening it.
  const fresh = (await refetch()).data;
  return fresh && !isClipExpired(fresh, now) ? fresh : null;
}

/** 'No se pudo cargar el video.' and 'Reintentar'. */
function ClipFailed({ onRetry, isRetrying }: { onRetry: () => void; isRetrying: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap" role="alert" data-testid="video-receipt-failed">
      <Text size="sm" c="dimmed">
        {t('purchases.videoReceipt.loadFailed')}
      </Text>
      <Button size="compact-sm" variant="subtle" onClick={onRetry} loading={isRetrying}>
        {t('common.retry')}
      </Button>
    </Group>
  );
}

/**
 * 'Video de tu compra' under a bought lot (Mis compras, the pay page): shown only when the lot has a
 * clip this viewer may watch (a 404 shows nothing), and it opens the clip in a dialog.
 */
export function VideoReceiptButton({ auctionId, name }: { auctionId: string; name: string }) {
  const { t } = useTranslation();
  const clip = useClipLink(auctionId);
  const [opened, setOpened] = useState<ClipLink | null>(null);
  const [isOpening, setOpening] = useState(false);
  const [hasOpenFailed, setOpenFailed] = useState(false);
  const dialog = useRetryableLazy(loadDialog);
  const { Loaded: Dialog } = dialog;

  if (clip.isError && isApiError(clip.error) && clip.error.status >= 400 && clip.error.status < 500) return null;
  if (clip.isError && !clip.data) return <ClipFailed onRetry={() => void clip.refetch()} isRetrying={clip.isFetching} />;
  if (!clip.data) return null;

  const open = async () => {
    setOpening(true);
    setOpenFailed(false);
    try {
      const link = await clipToOpen(clip.data, () => clip.refetch(), Date.now());
      setOpened(link);
      setOpenFailed(link === null);
    } finally {
      setOpening(false);
    }
  };
  if (hasOpenFailed) return <ClipFailed onRetry={() => void open()} isRetrying={isOpening} />;

  return (
    <>
      <Button
        variant="light"
        size="compact-md"
        w="fit-content"
        onClick={() => void open()}
        loading={isOpening}
        aria-haspopup="dialog"
        data-testid="video-receipt"
      >
        {t('purchases.videoReceipt.button')}
      </Button>
      {opened && (
        <LoadErrorBoundary
          key={dialog.attempt}
          fallback={(reset) => (
            <LoadFailed
              fixed
              message={t('purchases.videoReceipt.loadFailed')}
              onRetry={() => {
                dialog.retry();
                reset();
              }}
            />
          )}
        >
          <Suspense fallback={null}>
            <Dialog clip={opened} name={name} onClose={() => setOpened(null)} />
          </Suspense>
        </LoadErrorBoundary>
      )}
    </>
  );
}
