import { Alert, Box, Button, Group, Modal, Slider, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { COVER_ASPECT, COVER_JPEG_QUALITY, COVER_ZOOM } from '../../domain/live.js';
import { useTranslation } from '../i18n';
import { coverDrawRect } from './cover';
import { PHONE_CONTROLS_CLASS, useIsPhoneHub } from './hub-layout';
import { HUB_WINDOW } from './hub-windows';

/**
 * A lot's photo may be on another origin (the S3 bucket or its CDN): it is read with CORS so the
 * canvas it is drawn on can still be exported. A chosen file's object URL and our own uploads are same-origin.
 */
export function crossOriginFor(src: string): 'anonymous' | undefined {
  if (src.startsWith('blob:') || src.startsWith('data:')) return undefined;
  try {
    return new URL(src, window.location.href).origin === window.location.origin ? undefined : 'anonymous';
  } catch {
    return undefined;
  }
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    const crossOrigin = crossOriginFor(src);
    if (crossOrigin) image.crossOrigin = crossOrigin;
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('image'));
    image.src = src;
  });
}

/** Draws the chosen 9:16 area onto a 720x1280 canvas and exports it as a JPEG at quality 0.9 (SPEC §5, §9). */
export async function exportCover(src: string, area: Area): Promise<File> {
  const image = await loadImage(src);
  const rect = coverDrawRect(area, { width: image.naturalWidth, height: image.naturalHeight });
  const canvas = document.createElement('canvas');
  canvas.width = rect.dw;
  canvas.height = rect.dh;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('canvas');
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, rect.sx, rect.sy, rect.sw, rect.sh, 0, 0, rect.dw, rect.dh);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', COVER_JPEG_QUALITY));
  if (!blob) throw new Error('blob');
  return new File([blob], `cover_${Date.now()}.jpg`, { type: 'image/jpeg' });
}

interface CoverCropModalProps {
  /** A local object URL of the chosen file; null: closed. */
  src: string | null;
  onClose: () => void;
  /** Exports and saves; rejects with a message to show. */
  onSave: (file: File) => Promise<void>;
}

/** 'Ajustar portada': react-easy-crop at 9:16, zoom 1–3 in steps of 0.01. */
export function CoverCropModal({ src, onClose, onSave }: CoverCropModalProps) {
  const { t } = useTranslation();
  const isPhone = useIsPhoneHub();
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState<number>(COVER_ZOOM.min);
  const [area, setArea] = useState<Area | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (isSaving) return;
    setCrop({ x: 0, y: 0 });
    setZoom(COVER_ZOOM.min);
    setArea(null);
    setError(null);
    onClose();
  };

  const save = async () => {
    if (!src || !area) return;
    setIsSaving(true);
    setError(null);
    try {
      await onSave(await exportCover(src, area));
      setIsSaving(false);
      close();
    } catch (e) {
      setIsSaving(false);
      setError(e instanceof Error && e.message && !['image', 'canvas', 'blob'].includes(e.message) ? e.message : t('livehub.edit.coverSaveFailed'));
    }
  };

  return (
    <Modal
      stackId={HUB_WINDOW.crop}
      opened={src !== null}
      onClose={close}
      title={t('livehub.crop.title')}
      size="md"
      fullScreen={isPhone}
      centered={!isPhone}
      className={isPhone ? PHONE_CONTROLS_CLASS : undefined}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="sm">
        <Box
          pos="relative"
          h={isPhone ? 'min(520px, 60dvh)' : 420}
          bg="dark.8"
          style={{ borderRadius: 12, overflow: 'hidden' }}
          aria-label={t('livehub.crop.area')}
          role="img"
        >
          {src && (
            <Cropper
              image={src}
              crop={crop}
              zoom={zoom}
              aspect={COVER_ASPECT}
              minZoom={COVER_ZOOM.min}
              maxZoom={COVER_ZOOM.max}
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={(_, pixels) => setArea(pixels)}
              mediaProps={{ crossOrigin: crossOriginFor(src) }}
            />
          )}
        </Box>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="livehub-crop-zoom">
            {t('livehub.crop.zoom')}
          </Text>
          <Slider
            min={COVER_ZOOM.min}
            max={COVER_ZOOM.max}
            step={COVER_ZOOM.step}
            value={zoom}
            onChange={setZoom}
            thumbLabel={t('livehub.crop.zoom')}
            label={(v) => `${v.toFixed(2)}×`}
          />
        </Stack>
        {error && (
          <Alert color="red" variant="light" role="alert" title={t('livehub.edit.coverSaveFailed')}>
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={isSaving}>
            {t('livehub.crop.cancel')}
          </Button>
          <Button onClick={() => void save()} loading={isSaving} disabled={!area}>
            {t('livehub.crop.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
