/**
 * The show (a child process): the seller runs the lots one after another through the real API
 * ('Establecer actual', then the timer) while B bid loops bid on each until the server closes it,
 * or, under Contrapuja, until the plan says stop (ShowStart.counterBid): the lot then closes R
 * seconds after its last leading bid.
 */
import { performance } from 'node:perf_hooks';
import { io } from 'socket.io-client';
import { BID_ERROR_CODES } from '../../src/domain/bid-rules.js';
import type { BidAnswer } from '../../src/domain/bidding.js';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { LOT_FINISHED_EVENT, type LotFinishedEvent } from '../../src/domain/realtime.js';
import { onceMessage, sendToParent, sleep } from '../support.js';
import { type Answer, expectOk, requester } from './http.js';
import { type AcceptedBid, isLateLot, type OpenedLot, type ShowResult, type ShowStart } from './protocol.js';

/** How long the show waits for a lot's close before calling the run broken. */
const CLOSE_WAIT_MS = 30_000;

export async function runShow(): Promise<void> {
  const start = await onceMessage<ShowStart>(process, 'start');
  const client = requester(start.base, start.bidders + 2);
  const sessionPath = `/api/live-sessions/${start.sessionId}`;
  // The show hears the close like a viewer, to start the next lot at once.
  const socket = io(start.base, { path: '/socket.io', transports: ['websocket'], reconnection: false, forceNew: true });
  const finished = new Map<string, () => void>();
  socket.on(LOT_FINISHED_EVENT, (event: LotFinishedEvent) => finished.get(event.lotId)?.());
  await new Promise<void>((resolve, reject) => {
    socket.once('connect_error', reject);
    socket.once('connect', () => socket.emit('joinSession', { sessionId: start.sessionId }, () => resolve()));
  });

  const accepted: AcceptedBid[] = [];
  const lotWallMs: number[] = [];
  const opened: OpenedLot[] = [];
  let attempted = 0;
  let refusedClosed = 0;
  let refusedTooLow = 0;
  let otherErrors = 0;
  let lastError: string | null = null;
  let nextBuyer = 0;
  const cpuBefore = process.cpuUsage();

  const plan = start.counterBid;
  // A late lot under Contrapuja lasts its timer, the extra bidding past it, and one more reset.
  const lotBudgetMs = CLOSE_WAIT_MS + start.timerS * 1000 + (plan ? plan.lateExtraMs + plan.resetS * 1000 : 0);
  for (const [index, lotId] of start.lotIds.entries()) {
    const closed = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`lot ${lotId} did not close within ${lotBudgetMs} ms`)), lotBudgetMs);
      finished.set(lotId, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await expectOk(client.request('POST', `${sessionPath}/current`, start.sellerCookie, { lotId }), 'set current');
    const detail = JSON.parse(
      await expectOk(client.request('POST', `${sessionPath}/timer`, start.sellerCookie, { seconds: start.timerS }), 'timer'),
    ) as LiveSessionDetail;
    const timedAt = performance.now();
    const lot = detail.lots.find((l) => l.id === lotId);
    if (!lot) throw new Error(`lot ${lotId} missing from the timer's answer`);
    const auctionId = lot.auction.id;
    let known = { version: lot.auction.state.version, nextMinimum: lot.auction.state.nextMinimum };
    const firstEndMs = lot.auction.state.endTime ?? Date.now() + start.timerS * 1000;
    const late = plan !== null && isLateLot(index, plan.lateShare);
    opened.push({ lotId, auctionId, firstEndMs, late });
    // Under Contrapuja the bidders stop (the machine's clock is the server's): past the first end
    // on a late lot, before the window opens on the others.
    const stopAt = !plan ? Number.POSITIVE_INFINITY : late ? firstEndMs + plan.lateExtraMs : firstEndMs - plan.windowS * 1000 - 500;
    let open = true;
    void closed.then(
      () => {
        open = false;
      },
      () => {
        open = false;
      },
    );
    // Every bid loop bids the next minimum it knows until the lot closes (or the server says so).
    const loop = async () => {
      while (open && Date.now() < stopAt) {
        const buyerIndex = nextBuyer++ % start.buyerCookies.length;
        const amount = known.nextMinimum;
        attempted++;
        let res: Answer;
        try {
          res = await client.request('POST', `/api/auctions/${auctionId}/bids`, start.buyerCookies[buyerIndex] as string, { amount });
        } catch (err) {
          otherErrors++;
          lastError = String(err);
          continue;
        }
        await sleep(start.bidGapMs);
        if (res.status === 201) {
          const answer = JSON.parse(res.body) as BidAnswer;
          if (answer.state.version > known.version) known = { version: answer.state.version, nextMinimum: answer.state.nextMinimum };
          for (const line of answer.bids) accepted.push({ lotId, auctionId, buyerIndex, seq: line.seq, amount: line.amount });
          continue;
        }
        let code = `HTTP_${res.status}`;
        try {
          const body = JSON.parse(res.body) as { error?: { code?: string; state?: { version: number; nextMinimum: number } } };
          code = body.error?.code ?? code;
          const state = body.error?.state;
          if (state && state.version > known.version) known = { version: state.version, nextMinimum: state.nextMinimum };
        } catch {
          // not JSON: keep the status as the code
        }
        if (code === BID_ERROR_CODES.closed) {
          refusedClosed++;
          // The close is committed; its event is on its way.
          await sleep(10);
        } else if (code === BID_ERROR_CODES.tooLow) refusedTooLow++;
        else {
          otherErrors++;
          lastError = `${res.status} ${res.body.slice(0, 200)}`;
          await sleep(10);
        }
      }
    };
    await Promise.all([closed, ...Array.from({ length: start.bidders }, loop)]);
    lotWallMs.push(Math.round(performance.now() - timedAt));
  }
  const cpu = process.cpuUsage(cpuBefore);
  socket.disconnect();
  client.close();
  const result: ShowResult = {
    type: 'result',
    accepted,
    attempted,
    refusedClosed,
    refusedTooLow,
    otherErrors,
    lastError,
    lotWallMs,
    lots: opened,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
  };
  await sendToParent(result);
}
