import { notifications } from '@mantine/notifications';
import { useCallback, useRef, useState } from 'react';
import { type LotChoice, useLiftStrikes, useLotChoice } from '../../api/unpaid';
import { useTranslation } from '../../i18n';
import { useErrorText } from '../../lib/use-error-text';

/** The key a lot's busy state is kept under. */
export const lotKey = (paymentId: string, auctionId: string) => `${paymentId}:${auctionId}`;

const DONE = { secondChance: 'unpaid.panel.done.secondChance', futureShow: 'unpaid.panel.done.futureShow', release: 'unpaid.panel.done.release' } as const;

/**
 * The choices of "Cuentas vencidas" and "Quitar bloqueo", each run once at a time per lot or buyer
 * (a second click while one runs does nothing), with a notice of how it went in Spanish.
 */
export function useExpiredActions() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const choice = useLotChoice();
  const lift = useLiftStrikes();
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  // What runs now, read synchronously: a double click starts one request.
  const running = useRef(new Set<string>());

  const track = useCallback(
    async (key: string, work: () => Promise<unknown>, success: string) => {
      if (running.current.has(key)) return;
      running.current.add(key);
      setBusy(new Set(running.current));
      try {
        await work();
        notifications.show({ color: 'green', message: success });
      } catch (error) {
        notifications.show({ color: 'red', message: t('unpaid.panel.failed', { reason: errorText(error) }), autoClose: 10_000 });
      } finally {
        running.current.delete(key);
        setBusy(new Set(running.current));
      }
    },
    [t, errorText],
  );

  const choose = useCallback(
    (paymentId: string, auctionId: string, lotChoice: LotChoice) =>
      track(lotKey(paymentId, auctionId), () => choice.mutateAsync({ paymentId, auctionId, choice: lotChoice }), t(DONE[lotChoice.kind])),
    [track, choice.mutateAsync, t],
  );

  const liftStrikes = useCallback(
    (userId: string) => track(`lift:${userId}`, () => lift.mutateAsync(userId), t('unpaid.strikes.lifted')),
    [track, lift.mutateAsync, t],
  );

  return { choose, liftStrikes, isBusy: (key: string) => busy.has(key) };
}
