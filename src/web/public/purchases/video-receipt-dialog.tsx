import type { ClipLink } from '../../api/replay-viewing';
import { NativeDialog } from '../../components/native-dialog';
import { useTranslation } from '../../i18n';

/** The clip of a bought lot, from its opening to its hammer, playing as it opens (fetched on the first tap, video-receipt.tsx). */
export function VideoReceiptDialog({ clip, name, onClose }: { clip: ClipLink; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <NativeDialog title={t('purchases.videoReceipt.title')} size="lg" closable onClose={onClose}>
      <video
        key={clip.url}
        src={clip.url}
        controls
        playsInline
        autoPlay
        muted={false}
        aria-label={t('purchases.videoReceipt.videoLabel', { name })}
        style={{ display: 'block', width: '100%', maxHeight: '75dvh', background: 'var(--mantine-color-black)', borderRadius: 'var(--mantine-radius-md)' }}
        data-testid="video-receipt-video"
      />
    </NativeDialog>
  );
}
