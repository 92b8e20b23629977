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
