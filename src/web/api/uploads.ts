import type { UploadResult } from '../../domain/uploads.js';
import { ApiError, NETWORK_ERROR_STATUS, toApiError } from './client';

/** What the image is for (the server sizes each kind differently): an auction photo, a session's 9:16 cover, a quick auction's photo. */
export type UploadKind = 'auction_image' | 'session_cover' | 'quick_auction';

export interface UploadOptions {
  /** Called with the sent fraction of the body, 0 to 1. */
  onProgress?: (fraction: number) => void;
  /** Aborting rejects with a DOMException named 'AbortError', as fetch does. */
  signal?: AbortSignal;
  kind?: UploadKind;
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function abortError(): DOMException {
  return new DOMException('Upload aborted', 'AbortError');
}

/**
 * POST /api/uploads with one image in the multipart field `file`. XMLHttpRequest rather than fetch
 * because only XHR reports upload progress. Resolves the stored image, or rejects with the server's
 * ApiError (Spanish message), a network ApiError (status 0) or an AbortError.
 */
export function uploadImage(file: File, options: UploadOptions = {}): Promise<UploadResult> {
  const { onProgress, signal, kind = 'auction_image' } = options;
  return new Promise<UploadResult>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbortSignal = () => xhr.abort();
    const cleanup = () => signal?.removeEventListener('abort', onAbortSignal);

    xhr.open('POST', '/api/uploads');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    };
    xhr.onload = () => {
      cleanup();
      const body = parseBody(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        resolve(body as UploadResult);
      } else {
        reject(toApiError(xhr.status, body));
      }
    };
    xhr.onerror = () => {
      cleanup();
      reject(new ApiError(NETWORK_ERROR_STATUS, 'NETWORK', 'Network error'));
    };
    xhr.onabort = () => {
      cleanup();
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbortSignal, { once: true });

    const form = new FormData();
    // Fields before the file, so the server reads `kind` before the bytes stream in.
    form.append('kind', kind);
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
