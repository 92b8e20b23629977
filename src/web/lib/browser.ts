/**
 * Opens `url` in a new tab; false when the browser blocked it (then the caller shows a link to click).
 * The new tab gets no handle back to this page.
 */
export function openInNewTab(url: string): boolean {
  const opened = window.open(url, '_blank');
  if (!opened) return false;
  opened.opener = null;
  return true;
}

/**
 * A blank tab opened during the click itself, to be pointed at a URL that arrives later: a tab
 * opened after an `await` is often blocked. Null when even this was blocked.
 */
export function openBlankTab(): Window | null {
  const opened = window.open('', '_blank');
  if (opened) opened.opener = null;
  return opened;
}

/** Copies text; false when the clipboard is unavailable (plain http on a LAN, a refused permission). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A random UUID (v4). crypto.randomUUID needs a secure context; plain http on a LAN falls back. */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
