import { Button, Group, Stack, Text } from '@mantine/core';
import { type FormEvent, useId, useState } from 'react';
import type { IncrementBand } from '../../../domain/bid-rules.js';
import { formatMoney, MAX_PRICE } from '../../../domain/money.js';
import { AmountInput } from '../../components/amount-input';
import { GavelIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import type { Amount } from '../../lib/peso-text';
import classes from './bid-form.module.css';
import { amountValue, type BidErrors, type BidFormValues, checkBid } from './bid-input';
import { hasBands, quickBidAmounts, stepAt } from './bid-steps';
import { SwitchField } from './switch-field';

interface BidFormProps {
  nextMinimum: number;
  /** The increment at the current price (the band's when the session has a band table). */
  minIncrement: number;
  /** The session's band table, ascending; null for a flat increment. */
  incrementBands: IncrementBand[] | null;
  isSending: boolean;
  disabled: boolean;
  /** The server's messages for a refused bid (400 VALIDATION). */
  serverFields: Record<string, string>;
  onSubmit: (values: BidFormValues) => void;
}

/**
 * 'Pujar': the amount pre-filled with the next minimum (and following it while untouched or when
 * overtaken), quick-bid amounts that step by the band of the price they start from, and the
 * optional private maximum for automatic bidding.
 */
export function BidForm({ nextMinimum, minIncrement, incrementBands, isSending, disabled, serverFields, onSubmit }: BidFormProps) {
  const rule = { minIncrement, incrementBands };
  const { t } = useTranslation();
  const explainId = useId();
  const [amount, setAmount] = useState<Amount>(nextMinimum);
  const [isEdited, setEdited] = useState(false);
  const [isAuto, setAuto] = useState(false);
  const [maxAmount, setMaxAmount] = useState<Amount>('');
  const [errors, setErrors] = useState<BidErrors | null>(null);
  const [seenMinimum, setSeenMinimum] = useState(nextMinimum);

  // A new minimum (someone bid): follow it unless the user typed more than it.
  if (seenMinimum !== nextMinimum) {
    setSeenMinimum(nextMinimum);
    const typed = amountValue(amount);
    if (!isEdited || typed === undefined || typed < nextMinimum) {
      setAmount(nextMinimum);
      setEdited(false);
      if (errors?.amount === 'belowMinimum') setErrors(errors.maxAmount ? { maxAmount: errors.maxAmount } : null);
    }
  }

  const errorText = (key: BidErrors['amount'], serverMessage: string | undefined) =>
    key ? t(`bidding.errors.${key}`, { amount: formatMoney(nextMinimum), limit: formatMoney(MAX_PRICE) }) : serverMessage || undefined;
  /** Editing a field takes its error away until the next 'Pujar'; the other field's stays. */
  const clearError = (field: keyof BidErrors) => {
    if (errors?.[field]) setErrors({ ...errors, [field]: undefined });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkBid(amount, maxAmount, isAuto, nextMinimum);
    setErrors(found);
    const bid = amountValue(amount);
    if (found || bid === undefined) return;
    onSubmit({ amount: bid, maxAmount: isAuto ? (amountValue(maxAmount) ?? null) : null });
  };

  const typedAmount = amountValue(amount);
  const base = typedAmount !== undefined && Number.isSafeInteger(typedAmount) ? Math.max(typedAmount, nextMinimum) : nextMinimum;
  // The field's arrows step by the band of the amount in it; the maximum's by the band of the bid.
  const step = stepAt(base, rule);

  return (
    <form onSubmit={submit} noValidate data-testid="bid-form">
      <Stack gap="sm">
        {/* Both amount fields keep what was typed, minus sign, centavos and all: checkBid says what is wrong (AmountInput). */}
        <AmountInput
          label={t('bidding.form.amount')}
          description={t('bidding.form.amountHint', { min: formatMoney(nextMinimum) })}
          value={amount}
          onChange={(value) => {
            setAmount(value);
            setEdited(true);
            clearError('amount');
          }}
          min={nextMinimum}
          max={MAX_PRICE}
          step={step}
          disabled={disabled}
          size="md"
          error={errorText(errors?.amount, serverFields.amount)}
          data-testid="bid-amount"
        />
        <Group gap="xs" role="group" aria-label={t('bidding.form.quickAdd')}>
          {quickBidAmounts(nextMinimum, rule).map((quick) => (
            <Button
              key={quick}
              variant={quick === typedAmount ? 'filled' : 'light'}
              size="compact-sm"
              disabled={disabled}
              aria-label={t('bidding.form.quickAddLabel', { amount: formatMoney(quick) })}
              aria-pressed={quick === typedAmount}
              data-testid="quick-bid"
              onClick={() => {
                setAmount(quick);
                setEdited(true);
                clearError('amount');
              }}
            >
              {t('bidding.form.quickAddButton', { amount: formatMoney(quick) })}
            </Button>
          ))}
        </Group>
        <SwitchField
          label={t('bidding.form.autoToggle')}
          checked={isAuto}
          onChange={(event) => setAuto(event.currentTarget.checked)}
          disabled={disabled}
          aria-describedby={explainId}
        />
        {/* Hidden, not removed, while off: the explanation still describes the switch (aria-describedby). */}
        <div hidden={!isAuto} className={classes.reveal}>
          <Stack gap="xs">
            <Text size="sm" c="dimmed" id={explainId}>
              {hasBands(rule)
                ? t('bidding.form.autoExplainBands', { increment: formatMoney(step) })
                : t('bidding.form.autoExplain', { increment: formatMoney(minIncrement) })}
            </Text>
            {isAuto && (
              <AmountInput
                label={t('bidding.form.maxAmount')}
                value={maxAmount}
                onChange={(value) => {
                  setMaxAmount(value);
                  clearError('maxAmount');
                }}
                min={typedAmount ?? nextMinimum}
                max={MAX_PRICE}
                step={step}
                disabled={disabled}
                size="md"
                error={errorText(errors?.maxAmount, serverFields.maxAmount)}
                data-testid="bid-max"
              />
            )}
          </Stack>
        </div>
        <Button type="submit" size="lg" fullWidth leftSection={<GavelIcon />} loading={isSending} disabled={disabled}>
          {t('bidding.form.submit')}
        </Button>
      </Stack>
    </form>
  );
}
