import type { SessionStatus } from '../../domain/live-public.js';
import { isSessionEndedError } from '../api/live-hub';
import type { LotRow } from './lot-rows';

/** What is used of useLotActions' setCurrent. */
export interface SetCurrentLot {
  mutate(input: { lotId: string; reopen: boolean }, handlers: { onError: (error: unknown) => Promise<void> }): void;
}

interface MakeCurrentOptions {
  status: SessionStatus;
  setCurrent: SetCurrentLot;
  /** The reopen question, as the screen asks it; true when the seller opens the show again. */
  askReopen: () => Promise<boolean>;
  /** Said just before the request goes (the phone clears its last refusal). */
  onSend?: () => void;
  onFailed: (error: unknown) => void;
}

/**
 * 'Poner en curso' on a row, for the lots panel and the phone's lots sheet alike. Setting a lot
 * current forces the session live (SPEC §4): on an ended session it asks first, and when someone
 * ended it meanwhile it asks, then sends again with `reopen`.
 */
export function makeCurrentAsking({ status, setCurrent, askReopen, onSend, onFailed }: MakeCurrentOptions) {
  const makeCurrent = async (row: LotRow, confirmed = false) => {
    let isReopen = confirmed;
    if (!isReopen && status === 'ended') {
      if (!(await askReopen())) return;
      isReopen = true;
    }
    onSend?.();
    setCurrent.mutate(
      { lotId: row.lot.id, reopen: isReopen },
      {
        onError: async (error) => {
          if (!isReopen && isSessionEndedError(error)) {
            if (await askReopen()) void makeCurrent(row, true);
            return;
          }
          onFailed(error);
        },
      },
    );
  };
  return makeCurrent;
}
