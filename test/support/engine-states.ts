import type { EngineLine, EngineState } from '../../src/server/db/engine-rows.js';

/** An auction's state as the bid engine answers it, at `version`, for tests that drive the broadcaster by hand. */
export function engineState(auctionId: string, version: number, over: Partial<EngineState> = {}): EngineState {
  return {
    id: auctionId,
    name: 'Reloj Casio vintage',
    companyId: 'remates-ventana',
    version,
    status: 'active',
    currentPrice: 1000 + version * 10,
    bidCount: version - 1,
    startingPrice: 1000,
    buyNowPrice: null,
    endTime: Date.now() + 3_600_000,
    leaderId: null,
    leaderMax: null,
    winnerId: null,
    winnerName: null,
    minIncrement: 10,
    incrementBands: null,
    timerMode: 'suddenDeath',
    antiSnipeSeconds: 0,
    counterBidResetSeconds: 0,
    serverNow: Date.now(),
    ...over,
  };
}

/** The history line a bid at `seq` adds. */
export const engineLine = (seq: number, bidderId = `u${seq}`): EngineLine => ({
  seq,
  bidderId,
  bidderName: 'Beto Pujador',
  amount: 1000 + seq * 10,
  isAutomatic: false,
  createdAt: 0,
});
