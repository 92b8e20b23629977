import { TextInput, type TextInputProps } from '@mantine/core';
import { formatMoney } from '../../../domain/money.js';
import { MAX_SHIPPING_COST } from '../../../domain/payments.js';

/**
 * The shipping cost as the seller types it (issue 14, item 1). A plain text field: a number input
 * that drops the minus sign or caps a large value rewrites what was typed ('-120' became '$0120',
 * a huge cost became the maximum), so the text stays as typed and validateShipping says what is wrong.
 */
export function ShippingCostInput({
  value,
  onChange,
  ...props
}: Omit<TextInputProps, 'value' | 'onChange'> & { value: number | string; onChange: (cost: string) => void }) {
  return (
    <TextInput
      {...props}
      value={String(value)}
      onChange={(event) => onChange(event.currentTarget.value)}
      leftSection="$"
      leftSectionPointerEvents="none"
      inputMode="numeric"
      autoComplete="off"
      maxLength={20}
    />
  );
}

/** The most a shipping cost may be, as the error message shows it. */
export const MAX_SHIPPING_COST_TEXT = formatMoney(MAX_SHIPPING_COST);
