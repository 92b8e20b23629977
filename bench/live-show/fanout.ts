/**
 * What a chat line's fan-out costs the server, alone: a Socket.IO server with N sockets in one room
 * (bare WebSocket clients in a forked child), fed RATE lines a second for S seconds, first one emit
 * per line, then one emit every 200 ms carrying that window's lines. Prints the server process's
 * CPU per second and per line for each. Not a bench of the app (no database, no routes): the
 * measure behind bench/README.md's batching note.
 *
 *   npx tsx bench/live-show/fanout.ts
 *   N=10 S=15 npx tsx bench/live-show/fanout.ts
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { Server } from 'socket.io';
import WebSocket from 'ws';
import type { ChatMessage } from '../../src/domain/chat.js';
import { sleep, tsxExecArgv } from '../support.js';

const N = Number(process.env.N ?? 1000);
const RATE = Number(process.env.RATE ?? 20);
const SECONDS = Number(process.env.S ?? 15);
const BATCH_MS = 200;

/** A line the size of the bench's. */
const line = (seq: number): ChatMessage => ({
  id: '6f1c0a3e-8a8e-4c59-9d0b-3f7f2b1d9a11',
  sessionId: '0a7f5d8e-1b2c-4d3e-8f9a-0b1c2d3e4f5a',
  seq,
  kind: 'user',
  authorName: 'Lucía G.',
  authorTag: 'a1b2c3d4',
  authorIsModerator: false,
  text: `¿Hacen envíos a Monterrey? (${seq})`,
  system: null,
  onlyAuthor: false,
  createdAt: Date.now(),
});

async function clients(port: number) {
  let ready = 0;
  for (let i = 0; i < N; i++) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`);
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text === '2') return ws.send('3');
      if (text.startsWith('0')) return ws.send('40');
      if (text.startsWith('40')) return ws.send('420["join"]');
      if (text.startsWith('430') && ++ready === N) process.send?.('ready');
    });
  }
  process.on('message', () => process.exit(0));
}

async function server() {
  const httpServer = http.createServer();
  const io = new Server(httpServer, { transports: ['websocket'] });
  io.on('connection', (socket) =>
    socket.on('join', (ack: () => void) => {
      void socket.join('room');
      ack();
    }),
  );
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const port = (httpServer.address() as { port: number }).port;
  const child = fork(fileURLToPath(import.meta.url), [], { execArgv: tsxExecArgv(), env: { ...process.env, FANOUT_PORT: String(port) } });
  await new Promise((resolve) => child.once('message', resolve));
  for (const mode of ['each', 'batch'] as const) {
    const cpuBefore = process.cpuUsage();
    const started = Date.now();
    let seq = 0;
    let pending: ChatMessage[] = [];
    const writer = setInterval(() => {
      const next = line(++seq);
      if (mode === 'each') io.to('room').emit('chatMessage', next);
      else pending.push(next);
    }, 1000 / RATE);
    const flusher =
      mode === 'batch'
        ? setInterval(() => {
            if (pending.length) io.to('room').emit('chatMessages', pending);
            pending = [];
          }, BATCH_MS)
        : null;
    await sleep(SECONDS * 1000);
    clearInterval(writer);
    if (flusher) clearInterval(flusher);
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const perS = cpuMs / ((Date.now() - started) / 1000);
    console.log(JSON.stringify({ mode, viewers: N, lines: seq, serverCpuMsPerS: Math.round(perS), serverCpuMsPerLine: Math.round((cpuMs / seq) * 100) / 100 }));
  }
  child.send('stop');
  io.close();
}

if (process.env.FANOUT_PORT) await clients(Number(process.env.FANOUT_PORT));
else await server();
