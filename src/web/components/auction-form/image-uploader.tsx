import { Alert, Box, Button, Group, Input, SimpleGrid, Stack, Text, VisuallyHidden } from '@mantine/core';
import { type DragEvent, useId, useRef, useState } from 'react';
import { MAX_AUCTION_IMAGES } from '../../../domain/auctions.js';
import { useTranslation } from '../../i18n';
import { UploadIcon } from '../panel-icons';
import { ImageTile } from './image-tile';
import { LockedNote } from './lock-notes';
import type { ImageUploads, Refusal } from './use-image-uploads';

interface ImageUploaderProps {
  uploads: ImageUploads;
  error?: string;
  /** Bids hold the auction: these photos were seen by bidders and stay (new ones may be added). */
  kept?: ReadonlySet<string>;
}

const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

/**
 * 'Imágenes' (SPEC §5): choose or drop up to six photos; each uploads at once. Tiles reorder by
 * dragging or with their arrow buttons; the first is the cover.
 */
export function ImageUploader({ uploads, error, kept }: ImageUploaderProps) {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const labelId = useId();
  const [isFileOver, setIsFileOver] = useState(false);
  const [dragKey, setDragKey] = useState<string | null>(null);
  const [dropIndex, setDropIndex] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const { items } = uploads;

  const addFiles = (list: FileList | null) => {
    if (list && list.length > 0) uploads.add(Array.from(list));
  };

  const move = (key: string, toIndex: number) => {
    uploads.move(key, toIndex);
    const to = Math.max(0, Math.min(items.length - 1, toIndex));
    setAnnouncement(t('auctionForm.images.moved', { position: to + 1 }));
  };

  const endDrag = () => {
    setDragKey(null);
    setDropIndex(null);
  };

  const refusalText = (refusal: Refusal) => {
    switch (refusal.kind) {
      case 'leftOut':
        return t('auctionForm.images.leftOut', { count: refusal.names.length, max: MAX_AUCTION_IMAGES, names: refusal.names.map((n) => `«${n}»`).join(', ') });
      case 'rejected':
        return t('auctionForm.images.rejected', { name: refusal.name, reason: refusal.reason });
      default:
        return t(`auctionForm.images.${refusal.kind}`, { name: refusal.name });
    }
  };
  const refusalKey = (refusal: Refusal) => (refusal.kind === 'leftOut' ? 'leftOut' : `${refusal.kind}-${refusal.name}`);

  return (
    <Stack gap="xs" role="group" aria-labelledby={labelId}>
      <div>
        <Input.Label id={labelId}>{t('auctionForm.images.title')}</Input.Label>
        <Input.Description>{t('auctionForm.images.hint', { max: MAX_AUCTION_IMAGES })}</Input.Description>
        {kept && (
          <Input.Description>
            <LockedNote>{t('auctionForm.locked.images')}</LockedNote>
          </Input.Description>
        )}
      </div>
      <Box
        p="md"
        data-testid="image-drop-area"
        onDragOver={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setIsFileOver(true);
        }}
        onDragLeave={() => setIsFileOver(false)}
        onDrop={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          setIsFileOver(false);
          addFiles(event.dataTransfer.files);
        }}
        style={{
          border: `2px dashed ${isFileOver ? 'var(--mantine-primary-color-filled)' : error ? 'var(--mantine-color-error)' : 'var(--mantine-color-gray-4)'}`,
          borderRadius: 'var(--mantine-radius-md)',
          background: isFileOver ? 'var(--mantine-primary-color-light)' : undefined,
        }}
      >
        <Stack gap="sm">
          <Group gap="sm" justify="center" wrap="wrap">
            <UploadIcon size={28} />
            {/* Phones have no files to drag in. */}
            <Text size="sm" visibleFrom="sm">
              {t('auctionForm.images.dropHere')}
            </Text>
            <Button size="xs" variant="light" onClick={() => inputRef.current?.click()}>
              {t('auctionForm.images.choose')}
            </Button>
            <Text size="xs" c="dimmed">
              {t('auctionForm.images.count', { count: items.length, max: MAX_AUCTION_IMAGES })}
            </Text>
          </Group>
          <input
            ref={inputRef}
            type="file"
            accept="image/*"
            multiple
            hidden
            aria-label={t('auctionForm.images.choose')}
            data-testid="image-input"
            onChange={(event) => {
              addFiles(event.currentTarget.files);
              // The same file chosen again must fire change again.
              event.currentTarget.value = '';
            }}
          />
          {items.length > 0 && (
            <SimpleGrid cols={{ base: 2, xs: 3, sm: 4 }} spacing="sm" role="list" aria-label={t('auctionForm.images.listLabel')}>
              {items.map((item, index) => (
                <ImageTile
                  key={item.key}
                  item={item}
                  index={index}
                  count={items.length}
                  isDragging={dragKey === item.key}
                  isDropTarget={dragKey !== null && dropIndex === index && dragKey !== item.key}
                  onMove={move}
                  onRemove={item.url && kept?.has(item.url) ? null : uploads.remove}
                  onRetry={uploads.retry}
                  onDragStart={setDragKey}
                  onDragOverTile={setDropIndex}
                  onDropOnTile={(index) => {
                    if (dragKey) move(dragKey, index);
                    endDrag();
                  }}
                  onDragEnd={endDrag}
                />
              ))}
            </SimpleGrid>
          )}
        </Stack>
      </Box>
      {uploads.refusals.length > 0 && (
        <Alert color="orange" variant="light" role="alert" withCloseButton closeButtonLabel={t('auctionForm.images.dismiss')} onClose={uploads.dismissRefusals}>
          <Stack gap={2}>
            {uploads.refusals.map((refusal) => (
              <Text key={refusalKey(refusal)} size="sm">
                {refusalText(refusal)}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {error && <Input.Error>{error}</Input.Error>}
      <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
    </Stack>
  );
}
