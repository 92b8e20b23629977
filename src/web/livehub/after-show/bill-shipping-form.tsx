import { Button, Group, NumberInput, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { MAX_PAYMENT_DEADLINE_HOURS, MIN_PAYMENT_DEADLINE_HOURS } from '../../../domain/after-show.js';
import { MAX_SHIPPING_COST } from '../../../domain/payments.js';
import { MAX_PICKUP_ADDRESS_LENGTH, type ShowShipping } from '../../../domain/show-billing.js';
import { isApiError } from '../../api/client';
import { useSaveShowShipping } from '../../api/show-billing';
import { type TranslationKey, useTranslation } from '../../i18n';
import { useErrorText } from '../../lib/use-error-text';
import { type BillFormField, type BillFormValues, formValuesOf, parseBillForm } from './bill-form-values';

interface BillShippingFormProps {
  sessionId: string;
  shipping: ShowShipping;
  /** The form as typed, for the preview. */
  onValuesChange: (values: BillFormValues) => void;
}

/** The show's shipping rules: flat fee (per extra lot, free from an amount) or pickup, and the show's own payment deadline. */
export function BillShippingForm({ sessionId, shipping, onValuesChange }: BillShippingFormProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const save = useSaveShowShipping(sessionId);
  const [values, setValues] = useState<BillFormValues>(() => formValuesOf(shipping));
  const [errors, setErrors] = useState<Partial<Record<BillFormField, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [isSaved, setIsSaved] = useState(false);

  useEffect(() => onValuesChange(values), [values, onValuesChange]);

  const set = <K extends BillFormField>(field: K, value: BillFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
    setIsSaved(false);
  };
  const fieldText = (code: string | undefined) => (code ? t(`showBilling.fields.${code}` as TranslationKey) : undefined);

  const submit = async () => {
    if (save.isPending) return;
    const parsed = parseBillForm(values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setServerError(null);
    try {
      const saved = await save.mutateAsync(parsed.input);
      setValues(formValuesOf(saved));
      setIsSaved(true);
    } catch (err) {
      // The server names each refused field in Spanish: show those under their inputs.
      const fields = isApiError(err) ? (err.fields as Record<string, string> | undefined) : undefined;
      if (fields) setErrors(fields as Partial<Record<BillFormField, string>>);
      setServerError(errorText(err));
    }
  };

  // A server message is already Spanish; a code of our schema is looked up.
  const shown = (field: BillFormField) => {
    const e = errors[field];
    return e && /^[a-zA-Z]+$/.test(e) ? fieldText(e) : e;
  };

  return (
    <Stack
      gap="sm"
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      aria-label={t('showBilling.shipping.title')}
    >
      <Text fw={600}>{t('showBilling.shipping.title')}</Text>
      <SegmentedControl
        aria-label={t('showBilling.shipping.modeLabel')}
        value={values.mode}
        onChange={(v) => set('mode', v === 'pickup' ? 'pickup' : 'flat')}
        data={[
          { value: 'flat', label: t('showBilling.shipping.modeFlat') },
          { value: 'pickup', label: t('showBilling.shipping.modePickup') },
        ]}
        fullWidth
      />
      {values.mode === 'flat' ? (
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <NumberInput
            label={t('showBilling.shipping.flatFee')}
            description={t('showBilling.shipping.flatFeeHint')}
            value={values.flatFee}
            onChange={(v) => set('flatFee', v)}
            min={0}
            max={MAX_SHIPPING_COST}
            allowDecimal={false}
            prefix="$"
            thousandSeparator=","
            error={shown('flatFee')}
          />
          <NumberInput
            label={t('showBilling.shipping.perExtraItem')}
            value={values.perExtraItem}
            onChange={(v) => set('perExtraItem', v)}
            min={0}
            max={MAX_SHIPPING_COST}
            allowDecimal={false}
            prefix="$"
            thousandSeparator=","
            error={shown('perExtraItem')}
          />
          <NumberInput
            label={t('showBilling.shipping.freeOver')}
            description={t('showBilling.shipping.freeOverHint')}
            value={values.freeOver}
            onChange={(v) => set('freeOver', v)}
            min={1}
            allowDecimal={false}
            prefix="$"
            thousandSeparator=","
            error={shown('freeOver')}
          />
        </SimpleGrid>
      ) : (
        <TextInput
          label={t('showBilling.shipping.pickupAddress')}
          value={values.pickupAddress}
          onChange={(e) => set('pickupAddress', e.currentTarget.value)}
          maxLength={MAX_PICKUP_ADDRESS_LENGTH}
          error={shown('pickupAddress')}
          required
        />
      )}
      <NumberInput
        label={t('showBilling.shipping.deadlineHours')}
        description={t('showBilling.shipping.deadlineHint')}
        value={values.paymentDeadlineHours}
        onChange={(v) => set('paymentDeadlineHours', v)}
        min={MIN_PAYMENT_DEADLINE_HOURS}
        max={MAX_PAYMENT_DEADLINE_HOURS}
        allowDecimal={false}
        error={shown('paymentDeadlineHours')}
        maw={260}
      />
      {serverError ? (
        <Text c="red" size="sm" role="alert">
          {serverError}
        </Text>
      ) : null}
      <Group gap="sm">
        <Button type="submit" variant="light" loading={save.isPending}>
          {t('showBilling.shipping.save')}
        </Button>
        {isSaved ? (
          <Text size="sm" c="green" role="status">
            {t('showBilling.shipping.saved')}
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}
