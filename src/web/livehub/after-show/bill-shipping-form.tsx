import { Button, Group, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ShowShipping } from '../../../domain/show-billing.js';
import { isApiError } from '../../api/client';
import { useSaveShowShipping } from '../../api/show-billing';
import { useTranslation } from '../../i18n';
import { serverFieldErrors } from '../../lib/field-errors';
import { useErrorText } from '../../lib/use-error-text';
import { type BillFormField, type BillFormValues, formValuesOf, isBillFormField, parseBillForm } from './bill-form-values';
import { BillShippingFields } from './bill-shipping-fields';

interface BillShippingFormProps {
  sessionId: string;
  shipping: ShowShipping;
  /** The form as typed, for the preview. */
  onValuesChange: (values: BillFormValues) => void;
}

/** The show's shipping rules and own payment deadline, saved with PUT …/shipping. */
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
      if (isApiError(err)) setErrors(serverFieldErrors(err.fields, isBillFormField).fields);
      setServerError(errorText(err));
    }
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
      <BillShippingFields values={values} onChange={set} errors={errors} />
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
