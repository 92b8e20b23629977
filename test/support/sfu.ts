import type { TestServer } from './server.js';
import { sleep } from './wait.js';

/**
 * Resolves once the embedded SFU's child process answers. It starts on first use, and on a busy
 * machine that can take longer than one request waits for it (the server's 5 s).
 */
export async function sfuUp(server: Pick<TestServer, 'ctx'>, sessionId: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await server.ctx.video.grant(sessionId, 'subscriber');
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(200);
    }
  }
}
