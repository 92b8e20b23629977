import { useEffect, useRef, useState } from 'react';
import { MAX_AUCTION_IMAGES } from '../../domain/auctions.js';
import { uploadImage } from '../api/uploads';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { isImageFile } from './cover';

export interface UploadTile {
  key: string;
  name: string;
  preview: string;
  progress: number;
  url: string | null;
  error: string | null;
}

let nextKey = 0;

/** The quick auction's photos: each uploads as soon as it is chosen, with its progress, error and removal. */
export function useQuickUploads() {
  const { t } = useTranslation();
  const [tiles, setTiles] = useState<UploadTile[]>([]);
  const [refusals, setRefusals] = useState<string[]>([]);
  const controllers = useRef(new Map<string, AbortController>());

  // Uploads still running when the page goes away are cancelled.
  useEffect(() => {
    const inFlight = controllers.current;
    return () => {
      for (const c of inFlight.values()) c.abort();
    };
  }, []);

  const patchTile = (key: string, change: Partial<UploadTile>) => setTiles((all) => all.map((tile) => (tile.key === key ? { ...tile, ...change } : tile)));

  const addFiles = (files: File[]) => {
    const refused: string[] = [];
    const room = MAX_AUCTION_IMAGES - tiles.length;
    const accepted: File[] = [];
    for (const file of files) {
      if (!isImageFile(file)) refused.push(t('livehub.quick.notImage', { name: file.name }));
      else if (accepted.length < room) accepted.push(file);
      else refused.push(t('livehub.errors.tooManyImages'));
    }
    setRefusals([...new Set(refused)]);
    const fresh = accepted.map((file) => ({ key: `q${nextKey++}`, name: file.name, preview: URL.createObjectURL(file), progress: 0, url: null, error: null }));
    setTiles((all) => [...all, ...fresh]);
    fresh.forEach((tile, i) => {
      const file = accepted[i] as File;
      const controller = new AbortController();
      controllers.current.set(tile.key, controller);
      uploadImage(file, { kind: 'quick_auction', signal: controller.signal, onProgress: (progress) => patchTile(tile.key, { progress }) })
        .then((stored) => patchTile(tile.key, { url: stored.url, progress: 1 }))
        .catch((error: unknown) => {
          if (error instanceof DOMException && error.name === 'AbortError') return;
          patchTile(tile.key, {
            error: t('livehub.quick.uploadFailed', {
              name: file.name,
              reason: apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('common.genericError') }),
            }),
          });
        })
        .finally(() => controllers.current.delete(tile.key));
    });
  };

  const removeTile = (key: string) => {
    controllers.current.get(key)?.abort();
    setTiles((all) => {
      const tile = all.find((x) => x.key === key);
      if (tile) URL.revokeObjectURL(tile.preview);
      return all.filter((x) => x.key !== key);
    });
  };

  /** After a success: the next auction starts without photos. */
  const clear = () => {
    for (const tile of tiles) URL.revokeObjectURL(tile.preview);
    setTiles([]);
    setRefusals([]);
  };

  return {
    tiles,
    refusals,
    addFiles,
    removeTile,
    clear,
    isUploading: tiles.some((tile) => tile.url === null && tile.error === null),
    urls: tiles.filter((tile) => tile.url).map((tile) => tile.url as string),
  };
}
