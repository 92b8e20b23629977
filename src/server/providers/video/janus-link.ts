import Janode, { type JanodeConnection, type JanodeHandle, type JanodeSession } from 'janode';
import { VideoUnavailableError } from './types.js';

/** A Janus that does not answer within this is treated as down (the route answers 503). */
const REQUEST_TIMEOUT_MS = 5000;

/** Janus's error code from a janode rejection ("427 Room 1 already exists"), or null for a transport failure. */
export function janusErrorCode(err: unknown): number | null {
  if (!(err instanceof Error)) return null;
  const own = (err as { _code?: unknown })._code;
  if (typeof own === 'number') return own;
  const m = /^(\d{3}) /.exec(err.message);
  return m ? Number(m[1]) : null;
}

class JanusTimeoutError extends Error {
  override name = 'JanusTimeoutError';
}

export function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new JanusTimeoutError(`Janus did not answer ${what} within ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

interface Link<H> {
  connection: JanodeConnection;
  session: JanodeSession;
  handle: H;
}

export interface JanusLink<H> {
  /**
   * One request on the shared handle. A transport failure or a silent Janus becomes
   * VideoUnavailableError (and the next request reconnects); Janus's own refusals are rethrown
   * as they are (janusErrorCode reads them).
   */
  request<T>(what: string, run: (handle: H) => Promise<T>): Promise<T>;
  /** Whether the last connection attempt or request found Janus unreachable, and since when (epoch ms); null when it answers. */
  downSince(): number | null;
  close(): Promise<void>;
}

/**
 * One connection, one Janus session and one plugin handle to a Janus, opened on the first request
 * and opened again on the next request after any of them drops. Nothing waits on a Janus that is
 * gone: no retries inside janode (its default waits 10 s five times), a request fails fast.
 */
export function createJanusLink<H extends JanodeHandle>(opts: {
  url: string;
  plugin: { id: string; Handle: new (...args: never[]) => H };
  log: { warn(obj: object, msg?: string): void };
}): JanusLink<H> {
  const { url, log } = opts;
  // janode prints to the console by itself; its failures reach our logger through the errors below.
  Janode.Logger.setLevel('none');
  let link: Promise<Link<H>> | null = null;
  let closed = false;
  let down: number | null = null;

  /** Opens the connection, a session and one handle; forgets them when any of them drops. */
  async function open(onDrop: () => void): Promise<Link<H>> {
    const connection = await Janode.connect({ address: { url }, max_retries: 0 });
    try {
      const session = await connection.create();
      const handle = await session.attach(opts.plugin);
      let dropped = false;
      const forget = (why: string) => () => {
        if (dropped) return;
        dropped = true;
        onDrop();
        if (!closed) {
          down ??= Date.now();
          log.warn({ janus: url, why }, 'janus: connection lost; the next request reconnects');
        }
      };
      connection.once(Janode.EVENT.CONNECTION_ERROR, forget('connection error'));
      connection.once(Janode.EVENT.CONNECTION_CLOSED, forget('connection closed'));
      session.once(Janode.EVENT.SESSION_DESTROYED, forget('session destroyed'));
      handle.once(Janode.EVENT.HANDLE_DETACHED, forget('handle detached'));
      return { connection, session, handle };
    } catch (err) {
      await connection.close().catch(() => {});
      throw err;
    }
  }

  function getLink(): Promise<Link<H>> {
    if (closed) return Promise.reject(new VideoUnavailableError('janus: the provider is closed'));
    if (!link) {
      const opening = open(() => {
        if (link === attempt) link = null;
      });
      const attempt = withTimeout(opening, 'a connection');
      link = attempt;
      attempt.catch(() => {
        if (link === attempt) link = null;
        // A connection that opens after its timeout is nobody's: close it.
        opening.then((l) => l.connection.close()).catch(() => {});
      });
    }
    return link;
  }

  return {
    async request<T>(what: string, run: (handle: H) => Promise<T>): Promise<T> {
      let current: Promise<Link<H>> | null = null;
      try {
        current = getLink();
        const { handle } = await current;
        const answer = await withTimeout(run(handle), what);
        down = null;
        return answer;
      } catch (err) {
        if (err instanceof VideoUnavailableError) throw err;
        if (janusErrorCode(err) !== null) {
          down = null;
          throw err;
        }
        // The link is suspect (a timeout, a closed socket): drop it so the next request opens a fresh one.
        if (current && link === current) {
          link = null;
          current.then((l) => l.connection.close()).catch(() => {});
        }
        down ??= Date.now();
        log.warn({ janus: url, err: err instanceof Error ? err.message : String(err) }, `janus: ${what} failed`);
        throw new VideoUnavailableError(`janus: ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
    downSince: () => down,
    async close(): Promise<void> {
      closed = true;
      const current = link;
      link = null;
      if (!current) return;
      try {
        const { connection, session } = await current;
        await withTimeout(session.destroy(), 'session destroy').catch(() => {});
        await withTimeout(connection.close(), 'close').catch(() => {});
      } catch {
        // Never connected: nothing to close.
      }
    },
  };
}
