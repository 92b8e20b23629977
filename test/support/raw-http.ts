import { connect, type Socket } from 'node:net';

/** A raw HTTP/1.1 connection: the test writes bytes as slowly as it likes and reads what comes back. */
export interface RawConnection {
  socket: Socket;
  /** Everything the server has answered so far. */
  received(): string;
  /** Bytes of the body written so far (what `write` was given after the headers). */
  sent(): number;
  /** Writes and waits until the bytes are handed to the OS; false once the connection is gone. */
  write(chunk: Buffer | string): Promise<boolean>;
  /** Resolves when the server closes the connection (or it breaks). */
  closed: Promise<void>;
  isClosed(): boolean;
}

export async function openRaw(baseUrl: string, head: string): Promise<RawConnection> {
  const url = new URL(baseUrl);
  const socket = connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const answer: Buffer[] = [];
  let bodyBytes = 0;
  let isClosed = false;
  socket.on('data', (chunk: Buffer) => {
    answer.push(chunk);
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      isClosed = true;
      resolve();
    }),
  );
  const write = (chunk: Buffer | string) =>
    new Promise<boolean>((resolve) => {
      if (isClosed || socket.destroyed) return resolve(false);
      socket.write(chunk, (err) => resolve(!err));
    });
  await write(head);
  return {
    socket,
    received: () => Buffer.concat(answer).toString('utf8'),
    sent: () => bodyBytes,
    async write(chunk) {
      const ok = await write(chunk);
      if (ok) bodyBytes += chunk.length;
      return ok;
    },
    closed,
    isClosed: () => isClosed,
  };
}
