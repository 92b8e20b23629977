import { Group, type MantineSize, Stack, TextInput } from '@mantine/core';
import { MAX_CARRIER_LENGTH } from '../../../domain/payments.js';
import { AmountInput } from '../../components/amount-input';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n';
import { MAX_SHIPPING_COST_TEXT } from './shipping-cost';
import type { ShippingErrors, ShippingFormValues } from './shipping-rules';

/** A draft's row: compact fields named for the winner, each saved as it loses focus. */
interface InlineLayout {
  winnerName: string;
  size: MantineSize;
  onBlur: () => void;
  isSaving: boolean;
}

interface ShippingFieldsProps {
  values: ShippingFormValues;
  errors: ShippingErrors;
  onChange: (patch: Partial<ShippingFormValues>) => void;
  isDisabled?: boolean;
  /** In a draft's row; without it, the labelled fields of a form ('Editar envío', the confirmation). */
  inline?: InlineLayout;
}

/** SPEC §2 and §5: a bill's carrier and cost (min 0, step 1), wherever the seller sets them. */
export function ShippingFields({ values, errors, onChange, isDisabled = false, inline }: ShippingFieldsProps) {
  const { t } = useTranslation();
  const carrier = (
    <TextInput
      {...(inline
        ? { size: inline.size, 'aria-label': t('payments.shipping.carrierLabelFor', { name: inline.winnerName }), onBlur: inline.onBlur }
        : { label: t('payments.shipping.carrier'), 'data-autofocus': true })}
      placeholder={t('payments.shipping.carrierPlaceholder')}
      value={values.carrier}
      onChange={(event) => onChange({ carrier: event.currentTarget.value })}
      maxLength={MAX_CARRIER_LENGTH}
      disabled={isDisabled}
      error={errors.carrier ? t(`payments.shipping.errors.${errors.carrier}`) : undefined}
      autoComplete="off"
    />
  );
  const cost = (
    <AmountInput
      asTyped
      {...(inline
        ? { size: inline.size, flex: 1, 'aria-label': t('payments.shipping.costLabelFor', { name: inline.winnerName }), onBlur: inline.onBlur }
        : { label: t('payments.shipping.cost'), description: t('payments.shipping.costHint') })}
      placeholder="0"
      value={values.cost}
      onChange={(value) => onChange({ cost: value })}
      disabled={isDisabled}
      error={errors.cost ? t(`payments.shipping.errors.${errors.cost}`, { max: MAX_SHIPPING_COST_TEXT }) : undefined}
    />
  );
  if (!inline) {
    return (
      <>
        {carrier}
        {cost}
      </>
    );
  }
  return (
    <Stack gap={6} miw={inline.size === 'xs' ? 160 : undefined}>
      {carrier}
      <Group gap={6} wrap="nowrap">
        {cost}
        {inline.isSaving && <Spinner size="xs" label={t('payments.shipping.saving')} />}
      </Group>
    </Stack>
  );
}
