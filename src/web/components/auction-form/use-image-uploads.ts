import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type AuctionImage, MAX_AUCTION_IMAGES } from '../../../domain/auctions.js';
import { MAX_UPLOAD_BYTES } from '../../../domain/uploads.js';
import { isApiError } from '../../api/client';
import { uploadImage } from '../../api/uploads';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';

export type ImageStatus = 'done' | 'uploading' | 'error';

/** One tile: an image already on the auction, or a file on its way up. */
export interface ImageItem {
  key: string;
  status: ImageStatus;
  /** Set once stored: what the auction saves. */
  url: string | null;
  thumbnailUrl: string | null;
  /** A local object URL, so the tile shows the photo before the server has it. */
  previewUrl: string | null;
  file: File | null;
  /** 0 to 1. */
  progress: number;
  /** The server's Spanish message (or ours for a network failure). */
  error: string | null;
}

/**
 * Why a chosen file has no tile: refused before uploading (not an image, too large), left out past
 * MAX_AUCTION_IMAGES, or refused by the server (its reason; the slot is given back).
 */
export type Refusal =
  | { kind: 'leftOut'; names: string[] }
  | { kind: 'notImage' | 'tooLarge'; name: string }
  | { kind: 'rejected'; name: string; reason: string };

/** A 4xx answer is the server refusing this file: retrying the same bytes cannot help. */
const isRefusal = (error: unknown) => isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;

const IMAGE_EXTENSION = /\.(jpe?g|png|webp|gif|avif|hei[cf])$/i;
let nextKey = 0;

/** `accept="image/*"` is only a hint to the picker (drops skip it); some systems leave HEIC untyped. */
export function looksLikeImage(file: File): boolean {
  return file.type.startsWith('image/') || (file.type === '' && IMAGE_EXTENSION.test(file.name));
}

export function fromExisting(images: AuctionImage[]): ImageItem[] {
  return images.map((image, index) => ({
    key: `existing-${index}-${image.url}`,
    status: 'done',
    url: image.url,
    thumbnailUrl: image.thumbnailUrl,
    previewUrl: null,
    file: null,
    progress: 1,
    error: null,
  }));
}

/**
 * The uploader's state: every file uploads as soon as it is chosen, each with its own progress;
 * at most MAX_AUCTION_IMAGES tiles in all (SPEC §5: existing plus new). Unmounting aborts what is
 * still in flight.
 */
export function useImageUploads(initial: AuctionImage[]) {
  const { t } = useTranslation();
  const [items, setItems] = useState<ImageItem[]>(() => fromExisting(initial));
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const itemsRef = useRef(items);
  const controllers = useRef(new Map<string, AbortController>());
  const previews = useRef(new Set<string>());

  useEffect(() => {
    itemsRef.current = items;
  }, [items]);

  useEffect(() => {
    const inFlight = controllers.current;
    const urls = previews.current;
    return () => {
      for (const controller of inFlight.values()) controller.abort();
      inFlight.clear();
      for (const url of urls) URL.revokeObjectURL(url);
      urls.clear();
    };
  }, []);

  const patch = useCallback((key: string, change: Partial<ImageItem>) => {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  /** Takes a tile away: its upload is aborted and its preview released. */
  const dropTile = useCallback((key: string) => {
    controllers.current.get(key)?.abort();
    controllers.current.delete(key);
    const previewUrl = itemsRef.current.find((candidate) => candidate.key === key)?.previewUrl;
    if (previewUrl) {
      URL.revokeObjectURL(previewUrl);
      previews.current.delete(previewUrl);
    }
    itemsRef.current = itemsRef.current.filter((candidate) => candidate.key !== key);
    // Functional updates only: a progress patch queued for another tile must not be lost.
    setItems((current) => current.filter((candidate) => candidate.key !== key));
  }, []);

  const describeError = useCallback(
    (error: unknown): string => {
      if (isApiError(error) && error.fields.file) return error.fields.file;
      return apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('auctionForm.images.failed') });
    },
    [t],
  );

  const start = useCallback(
    (key: string, file: File) => {
      controllers.current.get(key)?.abort();
      const controller = new AbortController();
      controllers.current.set(key, controller);
      uploadImage(file, { signal: controller.signal, onProgress: (progress) => patch(key, { progress }) })
        .then((result) => patch(key, { status: 'done', url: result.url, thumbnailUrl: result.thumbnailUrl, progress: 1, error: null }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          if (isRefusal(error)) {
            // Refused for good: the tile goes, its slot with it, and the notice says why.
            dropTile(key);
            setRefusals((current) => [...current, { kind: 'rejected', name: file.name, reason: describeError(error) }]);
            return;
          }
          patch(key, { status: 'error', error: describeError(error), progress: 0 });
        })
        .finally(() => {
          if (controllers.current.get(key) === controller) controllers.current.delete(key);
        });
    },
    [patch, describeError, dropTile],
  );

  const add = useCallback(
    (files: File[]) => {
      const refused: Refusal[] = [];
      const leftOut: string[] = [];
      const accepted: ImageItem[] = [];
      let room = MAX_AUCTION_IMAGES - itemsRef.current.length;
      for (const file of files) {
        if (!looksLikeImage(file)) refused.push({ kind: 'notImage', name: file.name });
        else if (file.size > MAX_UPLOAD_BYTES) refused.push({ kind: 'tooLarge', name: file.name });
        else if (room <= 0) leftOut.push(file.name);
        else {
          room -= 1;
          const previewUrl = URL.createObjectURL(file);
          previews.current.add(previewUrl);
          nextKey += 1;
          accepted.push({ key: `new-${nextKey}`, status: 'uploading', url: null, thumbnailUrl: null, previewUrl, file, progress: 0, error: null });
        }
      }
      if (leftOut.length > 0) refused.push({ kind: 'leftOut', names: leftOut });
      setRefusals(refused);
      if (accepted.length === 0) return;
      // Counted at once, so a second drop before the next render still sees these tiles.
      itemsRef.current = [...itemsRef.current, ...accepted];
      setItems((current) => [...current, ...accepted]);
      for (const item of accepted) if (item.file) start(item.key, item.file);
    },
    [start],
  );

  const retry = useCallback(
    (key: string) => {
      const item = itemsRef.current.find((candidate) => candidate.key === key);
      if (!item?.file) return;
      patch(key, { status: 'uploading', progress: 0, error: null });
      start(key, item.file);
    },
    [patch, start],
  );

  const remove = useCallback(
    (key: string) => {
      dropTile(key);
      setRefusals([]);
    },
    [dropTile],
  );

  /** Moves one tile to `toIndex` (clamped); the first tile is the cover. */
  const move = useCallback((key: string, toIndex: number) => {
    setItems((current) => {
      const from = current.findIndex((item) => item.key === key);
      const to = Math.max(0, Math.min(current.length - 1, toIndex));
      if (from < 0 || from === to) return current;
      const next = [...current];
      const [moved] = next.splice(from, 1);
      if (moved) next.splice(to, 0, moved);
      return next;
    });
  }, []);

  const urls = useMemo(() => items.flatMap((item) => (item.status === 'done' && item.url ? [item.url] : [])), [items]);

  return {
    items,
    urls,
    refusals,
    dismissRefusals: () => setRefusals([]),
    isUploading: items.some((item) => item.status === 'uploading'),
    hasFailed: items.some((item) => item.status === 'error'),
    add,
    retry,
    remove,
    move,
  };
}

export type ImageUploads = ReturnType<typeof useImageUploads>;
