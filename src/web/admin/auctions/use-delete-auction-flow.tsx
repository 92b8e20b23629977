import { Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useCallback, useRef, useState } from 'react';
import type { AuctionListItem } from '../../../domain/auctions.js';
import { useDeleteAuction } from '../../api/auctions';
import { useTranslation } from '../../i18n';
import { useErrorText } from '../../lib/use-error-text';

const CONFIRM_MODAL_ID = 'delete-auction';

/**
 * Delete with confirmation (SPEC §5). One confirmation at a time and one request per auction,
 * however often the buttons are clicked; the server's refusal (bids, a payment) is shown as it said it.
 */
export function useDeleteAuctionFlow(): { requestDelete: (item: Pick<AuctionListItem, 'id' | 'name'>) => void; deletingIds: ReadonlySet<string> } {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const mutation = useDeleteAuction();
  const [deletingIds, setDeletingIds] = useState<ReadonlySet<string>>(() => new Set());
  // Refs, not state: a double click lands before React re-renders.
  const inFlight = useRef(new Set<string>());
  const isConfirming = useRef(false);

  const remove = useCallback(
    async ({ id, name }: Pick<AuctionListItem, 'id' | 'name'>) => {
      if (inFlight.current.has(id)) return;
      inFlight.current.add(id);
      setDeletingIds(new Set(inFlight.current));
      try {
        await mutation.mutateAsync(id);
        notifications.show({ color: 'green', title: t('auctions.delete.successTitle'), message: t('auctions.delete.successMessage', { name }) });
      } catch (error) {
        notifications.show({ color: 'red', title: t('auctions.delete.failedTitle'), message: errorText(error), autoClose: 8000 });
      } finally {
        inFlight.current.delete(id);
        setDeletingIds(new Set(inFlight.current));
      }
    },
    [mutation.mutateAsync, t, errorText],
  );

  const requestDelete = useCallback(
    (item: Pick<AuctionListItem, 'id' | 'name'>) => {
      if (isConfirming.current || inFlight.current.has(item.id)) return;
      isConfirming.current = true;
      modals.openConfirmModal({
        modalId: CONFIRM_MODAL_ID,
        title: t('auctions.delete.title'),
        centered: true,
        // The second click of a double click must not dismiss the dialog it just opened.
        closeOnClickOutside: false,
        children: (
          <Stack gap="xs">
            <Text size="sm">{t('auctions.delete.confirm')}</Text>
            <Text size="sm" c="dimmed">
              {t('auctions.delete.detail', { name: item.name })}
            </Text>
          </Stack>
        ),
        labels: { confirm: t('auctions.delete.confirmButton'), cancel: t('auctions.delete.cancel') },
        confirmProps: { color: 'red' },
        onConfirm: () => void remove(item),
        onClose: () => {
          isConfirming.current = false;
        },
      });
    },
    [remove, t],
  );

  return { requestDelete, deletingIds };
}
