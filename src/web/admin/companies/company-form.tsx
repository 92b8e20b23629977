import { Alert, Button, Group, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { MAX_PAYMENT_DEADLINE_HOURS, MAX_STRIKE_LIMIT, MIN_PAYMENT_DEADLINE_HOURS, MIN_STRIKE_LIMIT } from '../../../domain/after-show.js';
import { type Company, ZCompanyInput } from '../../../domain/companies.js';
import { isApiError } from '../../api/client';
import { useCompany, useSaveCompany } from '../../api/companies';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { fieldErrors, serverFieldErrors, topLevelField } from '../../lib/field-errors';

type TextField = 'name' | 'rfc' | 'legalName';
type NumberField = 'paymentDeadlineHours' | 'strikeLimit';
type Field = TextField | NumberField | 'recordShows';
const FIELDS: readonly Field[] = ['name', 'rfc', 'legalName', 'paymentDeadlineHours', 'strikeLimit', 'recordShows'];
const isField = (name: string): name is Field => (FIELDS as readonly string[]).includes(name);
const ERROR_KEYS = [
  'companyNameRequired',
  'rfcFormat',
  'rfcCheckDigit',
  'tooLong',
  'textInvalid',
  'paymentDeadlineInvalid',
  'strikeLimitInvalid',
  'recordShowsInvalid',
] as const;
type ErrorKey = (typeof ERROR_KEYS)[number];
const isErrorKey = (key: string): key is ErrorKey => (ERROR_KEYS as readonly string[]).includes(key);

/** One company's record: name (shown everywhere), RFC and razón social (for invoices). */
export function CompanyEditor({ companyId, onSaved }: { companyId: string; onSaved?: () => void }) {
  const { t } = useTranslation();
  const company = useCompany(companyId);
  if (company.isPending) return <Spinner size="sm" label={t('common.loading')} />;
  if (company.isError)
    return <Alert color="red">{apiErrorText(company.error, { networkMessage: t('common.networkError'), fallback: t('companies.loadFailed') })}</Alert>;
  return <CompanyForm key={company.data.id} company={company.data} {...(onSaved ? { onSaved } : {})} />;
}

function CompanyForm({ company, onSaved }: { company: Company; onSaved?: () => void }) {
  const { t } = useTranslation();
  const save = useSaveCompany();
  const [values, setValues] = useState<Record<TextField, string>>({ name: company.name, rfc: company.rfc ?? '', legalName: company.legalName ?? '' });
  // NumberInput answers '' while empty: sent as is, so the shared schema refuses it with its message.
  const [numbers, setNumbers] = useState<Record<NumberField, number | string>>({
    paymentDeadlineHours: company.paymentDeadlineHours,
    strikeLimit: company.strikeLimit,
  });
  /** 'Grabar los shows': new shows start recorded unless their seller turns it off. */
  const [recordShows, setRecordShows] = useState(company.recordShows);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const updateNumber = (field: NumberField, value: number | string) => {
    setNumbers((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setFormError(null);
  };

  const update = (field: TextField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setFormError(null);
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const parsed = ZCompanyInput.safeParse({
      ...values,
      paymentDeadlineHours: numbers.paymentDeadlineHours === '' ? null : numbers.paymentDeadlineHours,
      strikeLimit: numbers.strikeLimit === '' ? null : numbers.strikeLimit,
      recordShows,
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues, topLevelField(isField), (message) => t(`companies.errors.${isErrorKey(message) ? message : 'tooLong'}`)));
      return;
    }
    try {
      const saved = await save.mutateAsync({ id: company.id, input: parsed.data });
      setValues({ name: saved.name, rfc: saved.rfc ?? '', legalName: saved.legalName ?? '' });
      setNumbers({ paymentDeadlineHours: saved.paymentDeadlineHours, strikeLimit: saved.strikeLimit });
      setRecordShows(saved.recordShows);
      notifications.show({ color: 'green', title: t('companies.saved'), message: t('companies.savedMessage', { name: saved.name }) });
      onSaved?.();
    } catch (error) {
      if (isApiError(error) && error.status === 400 && Object.keys(error.fields).length > 0) setErrors(serverFieldErrors(error.fields, isField).fields);
      else setFormError(apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('companies.saveFailed') }));
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('companies.idLine', { id: company.id })}
        </Text>
        <TextInput
          label={t('companies.fields.name')}
          description={t('companies.fields.nameHint')}
          value={values.name}
          onChange={(e) => update('name', e.currentTarget.value)}
          error={errors.name}
          required
          maxLength={120}
          autoComplete="organization"
        />
        <TextInput
          label={t('companies.fields.rfc')}
          description={t('companies.fields.rfcHint')}
          value={values.rfc}
          onChange={(e) => update('rfc', e.currentTarget.value)}
          error={errors.rfc}
          maxLength={20}
          autoComplete="off"
          spellCheck={false}
        />
        <TextInput
          label={t('companies.fields.legalName')}
          description={t('companies.fields.legalNameHint')}
          value={values.legalName}
          onChange={(e) => update('legalName', e.currentTarget.value)}
          error={errors.legalName}
          maxLength={250}
        />
        <NumberInput
          label={t('companies.fields.paymentDeadlineHours')}
          description={t('companies.fields.paymentDeadlineHoursHint')}
          value={numbers.paymentDeadlineHours}
          onChange={(value) => updateNumber('paymentDeadlineHours', value)}
          error={errors.paymentDeadlineHours}
          min={MIN_PAYMENT_DEADLINE_HOURS}
          max={MAX_PAYMENT_DEADLINE_HOURS}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          inputMode="numeric"
        />
        <NumberInput
          label={t('companies.fields.strikeLimit')}
          description={t('companies.fields.strikeLimitHint')}
          value={numbers.strikeLimit}
          onChange={(value) => updateNumber('strikeLimit', value)}
          error={errors.strikeLimit}
          min={MIN_STRIKE_LIMIT}
          max={MAX_STRIKE_LIMIT}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          inputMode="numeric"
        />
        <Switch
          label={t('companies.fields.recordShows')}
          description={t('companies.fields.recordShowsHint')}
          checked={recordShows}
          onChange={(e) => {
            setRecordShows(e.currentTarget.checked);
            setErrors((current) => ({ ...current, recordShows: undefined }));
            setFormError(null);
          }}
          error={errors.recordShows}
        />
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {t('companies.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
