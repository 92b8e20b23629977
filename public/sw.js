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

// A tap: the tab already on the show comes forward; otherwise an open tab of the site goes to the
// show (an installed app has one window); otherwise a new window opens on it.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = safeUrl(event.notification.data?.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const there = windows.find((client) => client.url === url);
      if (there) return there.focus();
      for (const client of windows) {
        try {
          // Only a tab this worker controls can be sent elsewhere; null when it left the site.
          const moved = await client.navigate(url);
          if (moved) return moved.focus().catch(() => moved);
        } catch {
          // Not controlled by this worker: try the next, or open a window.
        }
      }
      return self.clients.openWindow(url);
    })(),
  );
});
