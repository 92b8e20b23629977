import { describe, expect, it } from 'vitest';
import { inFlightRunner, saveNewest } from '../../../../src/web/admin/payments/use-in-flight';

/**
 * A draft's inline shipping is saved on blur: the carrier, then the cost a moment later, often
 * while the carrier's save (and the lists it refreshes) is still on its way. The in-flight guard
 * runs one save per draft at a time; what was typed meanwhile must be saved after it, not dropped.
 */

interface Shipping {
  carrier: string;
  cost: number | null;
}

/** A save the test answers by hand, recording what it was asked to save. */
function manualSaves() {
  const asked: Shipping[] = [];
  const answers: ((ok: boolean) => void)[] = [];
  const save = (value: Shipping) =>
    new Promise<boolean>((resolve) => {
      asked.push(value);
      answers.push(resolve);
    });
  /** Lets the save's promise chain run. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { asked, save, settle, answer: (k: number, ok: boolean) => answers[k]?.(ok) };
}

const at = (id: string) => ({ id, key: `shipping:${id}` });

describe('saving a draft shipping', () => {
  it('saves the cost typed while the carrier was being saved, after it', async () => {
    const run = inFlightRunner(() => {});
    const queued = new Map<string, Shipping>();
    const saves = manualSaves();
    const carrier = saveNewest(run, queued, at('p1'), { carrier: 'Estafeta', cost: null }, saves.save);
    await saves.settle();
    const cost = saveNewest(run, queued, at('p1'), { carrier: 'Estafeta', cost: 180 }, saves.save);
    // Left to the running call; nothing is sent twice at once.
    expect(await cost).toBe(true);
    expect(saves.asked).toEqual([{ carrier: 'Estafeta', cost: null }]);

    saves.answer(0, true);
    await saves.settle();
    expect(saves.asked).toEqual([
      { carrier: 'Estafeta', cost: null },
      { carrier: 'Estafeta', cost: 180 },
    ]);
    saves.answer(1, true);
    expect(await carrier).toBe(true);
    expect(queued.size).toBe(0);
  });

  it('saves only the newest of several values typed during one save', async () => {
    const run = inFlightRunner(() => {});
    const queued = new Map<string, Shipping>();
    const saves = manualSaves();
    const first = saveNewest(run, queued, at('p1'), { carrier: 'DHL', cost: 100 }, saves.save);
    await saves.settle();
    await saveNewest(run, queued, at('p1'), { carrier: 'DHL', cost: 150 }, saves.save);
    await saveNewest(run, queued, at('p1'), { carrier: 'DHL', cost: 199 }, saves.save);
    saves.answer(0, true);
    await saves.settle();
    saves.answer(1, true);
    expect(await first).toBe(true);
    expect(saves.asked.map((s) => s.cost)).toEqual([100, 199]);
  });

  it('still saves what was typed after a save that failed, and answers that last save', async () => {
    const run = inFlightRunner(() => {});
    const queued = new Map<string, Shipping>();
    const saves = manualSaves();
    const first = saveNewest(run, queued, at('p1'), { carrier: 'Redpack', cost: null }, saves.save);
    await saves.settle();
    await saveNewest(run, queued, at('p1'), { carrier: 'Redpack', cost: 90 }, saves.save);
    saves.answer(0, false);
    await saves.settle();
    saves.answer(1, false);
    expect(await first).toBe(false);
    expect(saves.asked.map((s) => s.cost)).toEqual([null, 90]);
  });

  it('saves two drafts at the same time, each on its own', async () => {
    const busyKeys: string[][] = [];
    const run = inFlightRunner((running) => busyKeys.push([...running].sort()));
    const queued = new Map<string, Shipping>();
    const saves = manualSaves();
    const one = saveNewest(run, queued, at('p1'), { carrier: 'DHL', cost: 100 }, saves.save);
    const two = saveNewest(run, queued, at('p2'), { carrier: 'FedEx', cost: 120 }, saves.save);
    await saves.settle();
    expect(saves.asked.map((s) => s.carrier)).toEqual(['DHL', 'FedEx']);
    expect(busyKeys.at(-1)).toEqual(['shipping:p1', 'shipping:p2']);
    saves.answer(0, true);
    saves.answer(1, true);
    expect(await Promise.all([one, two])).toEqual([true, true]);
    expect(busyKeys.at(-1)).toEqual([]);
  });
});
