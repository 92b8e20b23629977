// Martillo's service worker: Web Push alerts only. It caches nothing, so a new deploy is never
// hidden behind a stale bundle (the server sends this file with Cache-Control: no-cache).
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** A same-origin path from the payload, or the home page. */
function safeUrl(value) {
  try {
    const url = new URL(typeof value === 'string' ? value : '/', self.location.origin);
    return url.origin === self.location.origin ? url.href : `${self.location.origin}/`;
  } catch {
    return `${self.location.origin}/`;
  }
}

self.addEventListener('push', (event) => {
  let data = null;
  try {
    data = event.data ? event.data.json() : null;
  } catch {
    data = null;
  }
  // A push without a readable payload shows nothing: there is nothing true to say.
  if (!data || typeof data.title !== 'string' || data.title === '') return;
  const url = safeUrl(data.url);
  event.waitUntil(
    self.registration.showNotification(data.title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : url,
      data: { url },
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      lang: 'es-MX',
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = safeUrl(event.notification.data?.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => client.url === url);
      if (open) return open.focus();
      return self.clients.openWindow(url);
    })(),
  );
});
