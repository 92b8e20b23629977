import { Anchor, Button, Group, Loader, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type ReactNode, useMemo } from 'react';
import type { LockableAuction } from '../../../domain/auction-lock.js';
import { type AuctionStatus, CONDITIONS, type Condicion, EDITABLE_AUCTION_STATUSES } from '../../../domain/auctions.js';
import { MAX_PRICE } from '../../../domain/money.js';
import { useCategories } from '../../api/categories';
import { useTranslation } from '../../i18n';
import { AmountInput } from '../amount-input';
import { LockIcon } from '../panel-icons';
import type { AuctionField, AuctionFormValues, EditableStatus, FieldErrors } from './form-values';
import { LockedNote } from './lock-notes';

export interface FieldsProps {
  values: AuctionFormValues;
  errors: FieldErrors;
  onChange: <K extends keyof AuctionFormValues>(field: K, value: AuctionFormValues[K]) => void;
  onBlur: (field: AuctionField) => void;
  /** The auction as bidders saw it, when it has bids: its locked fields are shown disabled, with the reason. */
  lock?: LockableAuction | null;
}

/** What a field frozen by bids shows: disabled, a padlock, and why. */
function useLockedProps(lock: LockableAuction | null | undefined) {
  const { t } = useTranslation();
  if (!lock) return {};
  return { disabled: true, rightSection: <LockIcon />, description: <LockedNote>{t('auctionForm.locked.field')}</LockedNote> };
}

/** The form keeps a price as a number ('-' as NaN) or '' while empty; the schema says what is wrong with it. */
const toPrice = (value: number | string): number | '' => (typeof value === 'number' ? value : value.trim() === '' ? '' : Number(value));

/** Name and description. */
export function TextFields({ values, errors, onChange, onBlur, lock }: FieldsProps) {
  const { t } = useTranslation();
  const locked = useLockedProps(lock);
  return (
    <>
      <TextInput
        label={t('auctionForm.fields.name')}
        value={values.name}
        onChange={(event) => onChange('name', event.currentTarget.value)}
        onBlur={() => onBlur('name')}
        error={errors.name}
        required
        maxLength={150}
        data-autofocus
        {...locked}
      />
      <Textarea
        label={t('auctionForm.fields.description')}
        value={values.description}
        onChange={(event) => onChange('description', event.currentTarget.value)}
        onBlur={() => onBlur('description')}
        error={errors.description}
        required
        autosize
        minRows={3}
        maxRows={10}
        maxLength={5000}
        {...locked}
      />
    </>
  );
}

/** 'Categoría' from GET /api/categories; with none yet, says who can create one. */
export function CategoryField({ values, errors, onChange, onBlur }: FieldsProps) {
  const { t } = useTranslation();
  const categories = useCategories();
  const data = useMemo(() => {
    const items = (categories.data ?? []).map((category) => ({ value: category.id, label: category.name }));
    // A category deleted meanwhile still shows as chosen rather than blank.
    if (values.categoryId && categories.data && !items.some((item) => item.value === values.categoryId)) {
      items.unshift({ value: values.categoryId, label: t('auctionForm.fields.categoryUnknown') });
    }
    return items;
  }, [categories.data, values.categoryId, t]);
  const isEmpty = categories.isSuccess && categories.data.length === 0;

  let hint: ReactNode = null;
  if (categories.isError) {
    hint = (
      <Group gap={6}>
        <Text size="xs" c="red">
          {t('auctionForm.fields.categoriesFailed')}
        </Text>
        <Anchor component="button" type="button" size="xs" onClick={() => void categories.refetch()}>
          {t('common.retry')}
        </Anchor>
      </Group>
    );
  } else if (isEmpty) {
    hint = (
      <Text size="xs" c="orange" role="note">
        {t('auctionForm.fields.noCategories')}
      </Text>
    );
  }

  return (
    <Stack gap={4}>
      <Select
        label={t('auctionForm.fields.category')}
        placeholder={categories.isPending ? t('common.loading') : t('auctionForm.fields.categoryPlaceholder')}
        data={data}
        value={values.categoryId}
        onChange={(value) => onChange('categoryId', value)}
        onBlur={() => onBlur('categoryId')}
        error={errors.categoryId}
        searchable
        nothingFoundMessage={t('auctionForm.fields.categorySearchEmpty')}
        allowDeselect={false}
        required
        disabled={isEmpty}
        rightSection={categories.isFetching && categories.isPending ? <Loader size="xs" /> : undefined}
        comboboxProps={{ withinPortal: true }}
      />
      {hint}
    </Stack>
  );
}

/** 'Precio inicial' and 'Precio de compra inmediata': whole pesos, never negative. */
export function PriceFields({ values, errors, onChange, onBlur, lock }: FieldsProps) {
  const { t } = useTranslation();
  const locked = useLockedProps(lock);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
      <AmountInput
        max={MAX_PRICE}
        label={t('auctionForm.fields.startingPrice')}
        description={t('auctionForm.fields.startingPriceHint')}
        value={values.startingPrice}
        onChange={(value) => onChange('startingPrice', toPrice(value))}
        onBlur={() => onBlur('startingPrice')}
        error={errors.startingPrice}
        required
        {...locked}
      />
      {lock ? (
        <LockedBuyNow value={values.buyNowPrice} stored={lock.buyNowPrice} error={errors.buyNowPrice} onChange={(value) => onChange('buyNowPrice', value)} />
      ) : (
        <AmountInput
          max={MAX_PRICE}
          label={t('auctionForm.fields.buyNowPrice')}
          description={t('auctionForm.fields.buyNowPriceHint')}
          value={values.buyNowPrice}
          onChange={(value) => onChange('buyNowPrice', toPrice(value))}
          onBlur={() => onBlur('buyNowPrice')}
          error={errors.buyNowPrice}
        />
      )}
    </SimpleGrid>
  );
}

/** Buy-now once there are bids: it may only be removed ('Quitar'), and put back before Save ('Deshacer'). */
function LockedBuyNow({
  value,
  stored,
  error,
  onChange,
}: {
  value: number | '';
  stored: number | null;
  error?: string;
  onChange: (value: number | '') => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <AmountInput
        label={t('auctionForm.fields.buyNowPrice')}
        description={<LockedNote>{t('auctionForm.locked.buyNow')}</LockedNote>}
        value={value}
        onChange={() => {}}
        error={error}
        disabled
        rightSection={<LockIcon />}
      />
      {stored !== null && value !== '' && (
        <Group gap={6}>
          <Button size="compact-xs" variant="light" color="red" aria-label={t('auctionForm.locked.buyNowRemoveAria')} onClick={() => onChange('')}>
            {t('auctionForm.locked.buyNowRemove')}
          </Button>
        </Group>
      )}
      {stored !== null && value === '' && (
        <Group gap={6}>
          <Text size="xs" c="orange">
            {t('auctionForm.locked.buyNowRemoved')}
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={() => onChange(stored)}>
            {t('auctionForm.locked.buyNowRestore')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** Condición (SPEC §3's seven values), Marca and Envío: all optional. */
export function DetailFields({ values, errors, onChange, onBlur, lock }: FieldsProps) {
  const { t } = useTranslation();
  const locked = useLockedProps(lock);
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <Select
          label={t('auctionForm.fields.condicion')}
          placeholder={t('auctionForm.fields.condicionPlaceholder')}
          data={CONDITIONS.map((condition) => ({ value: condition, label: condition }))}
          value={values.condicion}
          onChange={(value) => onChange('condicion', (value as Condicion | null) ?? null)}
          onBlur={() => onBlur('condicion')}
          error={errors.condicion}
          clearable
          clearButtonProps={{ 'aria-label': t('auctionForm.fields.condicionClear') }}
          comboboxProps={{ withinPortal: true }}
          {...locked}
        />
        <TextInput
          label={t('auctionForm.fields.marca')}
          value={values.marca}
          onChange={(event) => onChange('marca', event.currentTarget.value)}
          onBlur={() => onBlur('marca')}
          error={errors.marca}
          maxLength={100}
          {...locked}
        />
      </SimpleGrid>
      <TextInput
        label={t('auctionForm.fields.envio')}
        description={t('auctionForm.fields.envioHint')}
        value={values.envio}
        onChange={(event) => onChange('envio', event.currentTarget.value)}
        onBlur={() => onBlur('envio')}
        error={errors.envio}
        maxLength={200}
        {...locked}
      />
    </>
  );
}

/** 'Estado': the form sets only Pendiente or Activa; a live or ended auction keeps its status unless changed here. */
export function StatusField({
  values,
  errors,
  onChange,
  currentStatus,
  lock,
  frozenBecause,
}: FieldsProps & { currentStatus: AuctionStatus | null; frozenBecause?: string | null }) {
  const { t } = useTranslation();
  const bidLocked = useLockedProps(lock);
  // A winner, a payment or an end with bids says more than "it has bids".
  const locked = frozenBecause ? { disabled: true, rightSection: <LockIcon />, description: <LockedNote>{frozenBecause}</LockedNote> } : bidLocked;
  const kept = values.status === null && currentStatus ? t('auctionForm.status.keep', { status: t(`auctionForm.status.${currentStatus}`) }) : undefined;
  return (
    <Select
      label={t('auctionForm.fields.status')}
      data={EDITABLE_AUCTION_STATUSES.map((status) => ({ value: status, label: t(`auctionForm.status.${status}`) }))}
      value={values.status}
      onChange={(value) => value && onChange('status', value as EditableStatus)}
      error={errors.status}
      placeholder={kept}
      description={t('auctionForm.status.hint')}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      {...locked}
    />
  );
}
