/**
 * The first screen's data, sent inside the HTML by the server as
 * `<script type="application/json" data-initial-url="/api/home">…</script>` (a data block: never
 * run, so the CSP's no-inline-script rule is kept), so a cold load paints with its data instead of
 * a spinner. A page passes it to its query as `initialData`. Each block is read once: a later read
 * of the same address (a refetch, a page opened again) asks the server.
 */
const taken = new Set<string>();

export function initialData<T>(url: string): T | undefined {
  if (typeof document === 'undefined' || taken.has(url)) return undefined;
  for (const element of document.querySelectorAll<HTMLScriptElement>('script[type="application/json"][data-initial-url]')) {
    if (element.dataset.initialUrl !== url) continue;
    taken.add(url);
    try {
      return JSON.parse(element.textContent ?? '') as T;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
