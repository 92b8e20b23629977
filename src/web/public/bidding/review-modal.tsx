import { Alert, Button, DataList, Group, Stack, Text } from '@mantine/core';
import { formatMoney } from '../../../domain/money.js';
import { pesosInWords } from '../../../domain/pesos-in-words.js';
import { AlertIcon } from '../../components/icons';
import { NativeDialog } from '../../components/native-dialog';
import { useTranslation } from '../../i18n';
import type { LargeBid } from './bid-input';
import type { BidAction, Review } from './use-bid-flow';

interface ReviewModalProps {
  review: Review | null;
  auctionName: string;
  buyNowPrice: number | null;
  /** The price the panel shows now (refreshed after an unknown outcome). */
  referencePrice: number;
  /** No bid yet: the price is the starting price, and is called that. */
  isStartingPrice: boolean;
  /** The increment at that price (its band's, when the session has a band table). */
  increment: number;
  isSending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The step before sending (eBay's 'Review bid'): the amount and the maximum for a bid, or the
 * price for 'Comprar ahora'. A bid far above the price gets a second look, in words. While it
 * sends (10 s at most) it cannot be closed; with no answer it says so and offers a retry.
 */
export function ReviewModal({
  review,
  auctionName,
  buyNowPrice,
  referencePrice,
  isStartingPrice,
  increment,
  isSending,
  onConfirm,
  onCancel,
}: ReviewModalProps) {
  const { t } = useTranslation();
  if (!review) return null;
  const { action } = review;
  const isBuyNow = action.kind === 'buyNow';
  const isCheck = action.kind === 'bid' && review.step === 'check' && review.large !== null;
  const price = formatMoney(buyNowPrice ?? 0);

  const submitLabel = review.failure
    ? t('bidding.confirm.retry')
    : isCheck
      ? t('bidding.check.confirm')
      : isBuyNow
        ? t('bidding.buyNow.submit', { price })
        : t('bidding.confirm.submit');
  const cancelLabel = isCheck ? t('bidding.check.fix') : isBuyNow ? t('bidding.buyNow.cancel') : t('bidding.confirm.cancel');

  return (
    <NativeDialog title={isBuyNow ? t('bidding.buyNow.title') : t('bidding.confirm.title')} onClose={onCancel} closable={!isSending}>
      <Stack gap="md" data-testid="review">
        {action.kind === 'bid' ? (
          <DataList labelWidth="10rem" gap="xs">
            <DataList.Item>
              <DataList.ItemLabel c="dimmed">{t('bidding.confirm.auction')}</DataList.ItemLabel>
              <DataList.ItemValue>{auctionName}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel c="dimmed">{isStartingPrice ? t('publicAuction.startingPrice') : t('bidding.confirm.currentPrice')}</DataList.ItemLabel>
              <DataList.ItemValue data-testid="review-price">{formatMoney(referencePrice)}</DataList.ItemValue>
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
            <DataList.Item>
              <DataList.ItemLabel c="dimmed">{t('bidding.confirm.increment')}</DataList.ItemLabel>
              <DataList.ItemValue data-testid="review-increment">{formatMoney(increment)}</DataList.ItemValue>
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
        {isCheck && review.large && action.kind === 'bid' && <LargeBidCheck action={action} large={review.large} isStartingPrice={isStartingPrice} />}
        {action.kind === 'bid' && !isCheck && (
          <Text size="sm" c="dimmed">
            {t('bidding.confirm.binding')}
          </Text>
        )}
        {review.failure && (
          <Alert
            color={review.failure === 'offline' ? 'red' : 'orange'}
            variant="light"
            role="alert"
            title={review.failure === 'offline' ? t('bidding.offline.title') : t('bidding.result.uncertainTitle')}
            data-testid="send-failure"
          >
            {review.failure === 'offline'
              ? t(isBuyNow ? 'bidding.result.offlineBuyNow' : 'bidding.result.offline')
              : t(isBuyNow ? 'bidding.result.uncertainBuyNow' : 'bidding.result.uncertain')}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={isSending}>
            {cancelLabel}
          </Button>
          <Button onClick={onConfirm} loading={isSending} data-autofocus>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </NativeDialog>
  );
}

/** The second look: each amount far above the price, in words and digits, and how many times the price it is. */
function LargeBidCheck({ action, large, isStartingPrice }: { action: Extract<BidAction, { kind: 'bid' }>; large: LargeBid; isStartingPrice: boolean }) {
  const { t } = useTranslation();
  const price = formatMoney(large.reference);
  const reference = isStartingPrice ? t('bidding.check.startingPrice', { price }) : t('bidding.check.currentPrice', { price });
  const line = (amount: number, times: number) => ({ words: pesosInWords(amount), amount: formatMoney(amount), times, reference });
  return (
    <Alert color="orange" variant="light" icon={<AlertIcon />} role="alert" title={t('bidding.check.title')} data-testid="large-bid-check">
      <Stack gap={4}>
        {large.amountTimes !== null && <Text size="sm">{t('bidding.check.amount', line(action.amount, large.amountTimes))}</Text>}
        {large.maxTimes !== null && action.maxAmount !== null && <Text size="sm">{t('bidding.check.max', line(action.maxAmount, large.maxTimes))}</Text>}
        <Text size="sm" fw={600}>
          {t('bidding.check.question')}
        </Text>
      </Stack>
    </Alert>
  );
}
