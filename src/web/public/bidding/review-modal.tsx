import { Alert, Button, DataList, Group, Modal, Stack, Text } from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../domain/money.js';
import type { Review } from './use-bid-flow';

interface ReviewModalProps {
  review: Review | null;
  auctionName: string;
  buyNowPrice: number | null;
  isSending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The step before sending (eBay's 'Review bid'): the amount and the maximum for a bid, or the
 * price for 'Comprar ahora'. While it sends it cannot be closed; with no answer it offers a retry.
 */
export function ReviewModal({ review, auctionName, buyNowPrice, isSending, onConfirm, onCancel }: ReviewModalProps) {
  const { t } = useTranslation();
  // Keep showing the last review while the modal animates out.
  const lastReview = useRef(review);
  if (review) lastReview.current = review;
  const shown = review ?? lastReview.current;
  const action = shown?.action;
  const isBuyNow = action?.kind === 'buyNow';
  const price = formatMoney(buyNowPrice ?? 0);

  return (
    <Modal
      opened={review !== null}
      onClose={onCancel}
      title={isBuyNow ? t('bidding.buyNow.title') : t('bidding.confirm.title')}
      centered
      closeOnClickOutside={!isSending}
      closeOnEscape={!isSending}
      withCloseButton={!isSending}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {action && (
        <Stack gap="md" data-testid="review">
          {action.kind === 'bid' ? (
            <DataList labelWidth="10rem" gap="xs">
              <DataList.Item>
                <DataList.ItemLabel c="dimmed">{t('bidding.confirm.auction')}</DataList.ItemLabel>
                <DataList.ItemValue>{auctionName}</DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel c="dimmed">{t('bidding.confirm.amount')}</DataList.ItemLabel>
                <DataList.ItemValue fw={700} data-testid="review-amount">
                  {formatMoney(action.amount)}
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel c="dimmed">{t('bidding.confirm.max')}</DataList.ItemLabel>
                <DataList.ItemValue fw={action.maxAmount === null ? undefined : 700} data-testid="review-max">
                  {action.maxAmount === null ? t('bidding.confirm.noMax') : formatMoney(action.maxAmount)}
                </DataList.ItemValue>
              </DataList.Item>
            </DataList>
          ) : (
            <Stack gap="xs">
              <Text fw={600}>{t('bidding.buyNow.question', { name: auctionName, price })}</Text>
              <Text size="sm" c="dimmed">
                {t('bidding.buyNow.explain')}
              </Text>
            </Stack>
          )}
          {action.kind === 'bid' && (
            <Text size="sm" c="dimmed">
              {t('bidding.confirm.binding')}
            </Text>
          )}
          {shown?.isUncertain && (
            <Alert color="orange" variant="light" role="alert">
              {t('bidding.result.uncertain')}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onCancel} disabled={isSending}>
              {isBuyNow ? t('bidding.buyNow.cancel') : t('bidding.confirm.cancel')}
            </Button>
            <Button onClick={onConfirm} loading={isSending} data-autofocus>
              {shown?.isUncertain ? t('bidding.confirm.retry') : isBuyNow ? t('bidding.buyNow.submit', { price }) : t('bidding.confirm.submit')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
