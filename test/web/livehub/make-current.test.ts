import { describe, expect, it } from 'vitest';
import type { LotView } from '../../../src/domain/live.js';
import { ApiError } from '../../../src/web/api/client';
import { SESSION_ENDED_CODE } from '../../../src/web/api/live-hub';
import type { LotRow } from '../../../src/web/livehub/lot-rows';
import { makeCurrentAsking, type SetCurrentLot } from '../../../src/web/livehub/make-current';

type Sent = { lotId: string; reopen: boolean };

/** A stand-in for the mutation: records each request and fails it with the errors given, in turn. */
function fakeSetCurrent(errors: unknown[]) {
  const sent: Sent[] = [];
  const setCurrent: SetCurrentLot = {
    mutate(input, handlers) {
      sent.push(input);
      const error = errors.shift();
      if (error !== undefined) void handlers.onError(error);
    },
  };
  return { sent, setCurrent };
}

const row = { lot: { id: 'lot-7' } as LotView } as LotRow;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("'Poner en curso' on a lot", () => {
  it('sends at once on a running show', async () => {
    const { sent, setCurrent } = fakeSetCurrent([]);
    const asked: string[] = [];
    const failed: unknown[] = [];
    await makeCurrentAsking({
      status: 'live',
      setCurrent,
      askReopen: async () => {
        asked.push('ask');
        return true;
      },
      onFailed: (e) => failed.push(e),
    })(row);
    expect(sent).toEqual([{ lotId: 'lot-7', reopen: false }]);
    expect(asked).toEqual([]);
    expect(failed).toEqual([]);
  });

  it('asks before reopening an ended show, and sends nothing when the seller says no', async () => {
    const { sent, setCurrent } = fakeSetCurrent([]);
    const make = makeCurrentAsking({ status: 'ended', setCurrent, askReopen: async () => false, onFailed: () => {} });
    await make(row);
    expect(sent).toEqual([]);
    const yes = makeCurrentAsking({ status: 'ended', setCurrent, askReopen: async () => true, onFailed: () => {} });
    await yes(row);
    expect(sent).toEqual([{ lotId: 'lot-7', reopen: true }]);
  });

  it('asks and sends again with reopen when the show ended meanwhile; any other refusal is said', async () => {
    const ended = new ApiError(409, SESSION_ENDED_CODE, 'La sesión terminó');
    const other = new ApiError(500, 'INTERNAL', 'Algo falló');
    const { sent, setCurrent } = fakeSetCurrent([ended, other]);
    const failed: unknown[] = [];
    const sends: string[] = [];
    await makeCurrentAsking({ status: 'live', setCurrent, askReopen: async () => true, onSend: () => sends.push('send'), onFailed: (e) => failed.push(e) })(
      row,
    );
    await settle();
    await settle();
    expect(sent).toEqual([
      { lotId: 'lot-7', reopen: false },
      { lotId: 'lot-7', reopen: true },
    ]);
    expect(sends).toEqual(['send', 'send']);
    expect(failed).toEqual([other]);
  });
});
