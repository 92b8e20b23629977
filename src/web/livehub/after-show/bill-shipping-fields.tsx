import { NumberInput, SegmentedControl, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { MAX_PAYMENT_DEADLINE_HOURS, MIN_PAYMENT_DEADLINE_HOURS } from '../../../domain/after-show.js';
import { MAX_SHIPPING_COST } from '../../../domain/payments.js';
import { MAX_PICKUP_ADDRESS_LENGTH } from '../../../domain/show-billing.js';
import { AmountInput } from '../../components/amount-input';
import { type TranslationKey, useTranslation } from '../../i18n';
import type { BillFormField, BillFormValues } from './bill-form-values';

interface BillShippingFieldsProps {
  values: BillFormValues;
  onChange: <K extends BillFormField>(field: K, value: BillFormValues[K]) => void;
  /** A field's error: a code of the schema (looked up) or the server's Spanish text. */
  errors: Partial<Record<BillFormField, string>>;
}

/**
 * The show's shipping fields: 'Envío fijo' (fee, per extra lot, free from an amount) or 'Entrega en
 * punto' (its address), and the show's own payment deadline. Used in 'Cobrar el show' and, folded,
 * when a show is created.
 */
export function BillShippingFields({ values, onChange, errors }: BillShippingFieldsProps) {
  const { t } = useTranslation();
  const shown = (field: BillFormField) => {
    const e = errors[field];
    return e && /^[a-zA-Z]+$/.test(e) ? t(`showBilling.fields.${e}` as TranslationKey) : e;
  };
  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label={t('showBilling.shipping.modeLabel')}
        value={values.mode}
        onChange={(v) => onChange('mode', v === 'pickup' ? 'pickup' : 'flat')}
        data={[
          { value: 'flat', label: t('showBilling.shipping.modeFlat') },
          { value: 'pickup', label: t('showBilling.shipping.modePickup') },
        ]}
        fullWidth
      />
      {values.mode === 'flat' ? (
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <AmountInput
            label={t('showBilling.shipping.flatFee')}
            description={t('showBilling.shipping.flatFeeHint')}
            value={values.flatFee}
            onChange={(v) => onChange('flatFee', v)}
            min={0}
            max={MAX_SHIPPING_COST}
            error={shown('flatFee')}
          />
          <AmountInput
            label={t('showBilling.shipping.perExtraItem')}
            value={values.perExtraItem}
            onChange={(v) => onChange('perExtraItem', v)}
            min={0}
            max={MAX_SHIPPING_COST}
            error={shown('perExtraItem')}
          />
          <AmountInput
            label={t('showBilling.shipping.freeOver')}
            description={t('showBilling.shipping.freeOverHint')}
            value={values.freeOver}
            onChange={(v) => onChange('freeOver', v)}
            min={1}
            error={shown('freeOver')}
          />
        </SimpleGrid>
      ) : (
        <TextInput
          label={t('showBilling.shipping.pickupAddress')}
          value={values.pickupAddress}
          onChange={(e) => onChange('pickupAddress', e.currentTarget.value)}
          maxLength={MAX_PICKUP_ADDRESS_LENGTH}
          error={shown('pickupAddress')}
          required
        />
      )}
      <NumberInput
        label={t('showBilling.shipping.deadlineHours')}
        description={t('showBilling.shipping.deadlineHint')}
        value={values.paymentDeadlineHours}
        onChange={(v) => onChange('paymentDeadlineHours', v)}
        min={MIN_PAYMENT_DEADLINE_HOURS}
        max={MAX_PAYMENT_DEADLINE_HOURS}
        allowDecimal={false}
        error={shown('paymentDeadlineHours')}
        maw={260}
      />
    </Stack>
  );
}
