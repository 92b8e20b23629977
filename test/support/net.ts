import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';

/** A loopback port that was free a moment ago: PUBLIC_URL must name the port before the app listens. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}
