import { Alert, Box, Button, Divider, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { type AuctionDetail, type AuctionImage, type AuctionInput, scheduleLock } from '../../../domain/auctions.js';
import { useCreateAuction, useUpdateAuction } from '../../api/auctions';
import { isApiError } from '../../api/client';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { serverFieldErrors } from '../../lib/field-errors';
import { CategoryField, DetailFields, PriceFields, StatusField, TextFields } from './auction-fields';
import { EndTimeField } from './end-time-field';
import {
  AUCTION_FIELDS,
  type AuctionField,
  type AuctionFieldErrorKey,
  type AuctionFormValues,
  EMPTY_VALUES,
  type FieldErrors,
  followServerEndTime,
  isAuctionField,
  snapshot,
  type ValidationContext,
  validateAuction,
  valuesFromDetail,
} from './form-values';
import { ImageUploader } from './image-uploader';
import { LockBanner } from './lock-notes';
import { useImageUploads } from './use-image-uploads';

interface AuctionFormProps {
  /** null: a new auction. */
  detail: AuctionDetail | null;
  /** The end time as the server has it now, when it is refetched while the form is open. */
  serverEndTime?: number | null | undefined;
  onDirtyChange: (isDirty: boolean) => void;
  /** Asks to close (the modal confirms a discard when needed). */
  onCancel: () => void;
  /** Closes at once after a save. */
  onSaved: () => void;
}

type ClientErrors = Partial<Record<AuctionField, AuctionFieldErrorKey>>;

function hasImageError(values: AuctionFormValues, urls: string[], context: ValidationContext): boolean {
  const result = validateAuction(values, urls, context);
  return !result.ok && Boolean(result.errors.images);
}

function existingImages(detail: AuctionDetail | null): AuctionImage[] {
  if (!detail) return [];
  if (detail.imageDetails?.length) return detail.imageDetails;
  return detail.images.map((url) => ({ url, thumbnailUrl: null }));
}

/** The auction create/edit form (SPEC §5), validated with the server's own schema. */
export function AuctionForm({ detail, serverEndTime, onDirtyChange, onCancel, onSaved }: AuctionFormProps) {
  const { t } = useTranslation();
  const create = useCreateAuction();
  const update = useUpdateAuction();
  const uploads = useImageUploads(existingImages(detail));
  const [values, setValues] = useState<AuctionFormValues>(() => (detail ? valuesFromDetail(detail) : EMPTY_VALUES));
  const [initialSnapshot, setInitialSnapshot] = useState(() =>
    snapshot(
      detail ? valuesFromDetail(detail) : EMPTY_VALUES,
      existingImages(detail).map((image) => image.url),
    ),
  );
  // The end time the form last took from the server; an untouched field follows the server's.
  const [loadedEndTime, setLoadedEndTime] = useState(detail?.endTime ?? null);
  if (detail && serverEndTime !== undefined && serverEndTime !== loadedEndTime) {
    setLoadedEndTime(serverEndTime);
    const next = followServerEndTime(values, loadedEndTime, serverEndTime);
    if (next !== values) {
      // Following the server is not an edit: the form stays as clean (or as dirty) as it was.
      const keys = uploads.items.map((item) => item.url ?? item.key);
      if (snapshot(values, keys) === initialSnapshot) setInitialSnapshot(snapshot(next, keys));
      setValues(next);
    }
  }
  const [clientErrors, setClientErrors] = useState<ClientErrors>({});
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [touched, setTouched] = useState<ReadonlySet<AuctionField>>(new Set());
  const [formError, setFormError] = useState<string | null>(null);
  const [hasSubmitted, setHasSubmitted] = useState(false);
  const [focusRequest, setFocusRequest] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const isSubmittingRef = useRef(false);
  const isSaving = create.isPending || update.isPending;
  // Bids hold what bidders relied on; a bid landing after this opened is caught by Save.
  const lock = detail && detail.bidCount > 0 ? detail : null;
  const frozen = detail ? scheduleLock(detail, Date.now()) : null;
  const frozenBecause = frozen ? t(`auctionForm.locked.schedule.${frozen}`) : null;
  const keptImages = useMemo(() => (lock ? new Set(lock.images) : undefined), [lock]);
  const context = (): ValidationContext => ({
    initial: detail ? { endTime: detail.endTime, status: detail.status } : null,
    now: Date.now(),
    locked: lock,
  });

  const imageKeys = uploads.items.map((item) => item.url ?? item.key);
  const isDirty = snapshot(values, imageKeys) !== initialSnapshot;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  // After a failed submit, take the keyboard to the first field that needs attention.
  useEffect(() => {
    if (focusRequest === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  /** Re-checks `fields` (and whatever already shows an error) against the current values. */
  function recheck(next: AuctionFormValues, fields: Iterable<AuctionField>) {
    const result = validateAuction(next, uploads.urls, context());
    const found: ClientErrors = result.ok ? {} : result.errors;
    setClientErrors((current) => {
      const merged: ClientErrors = {};
      const keys = new Set<AuctionField>([...fields, ...(Object.keys(current) as AuctionField[])]);
      for (const field of keys) if (found[field]) merged[field] = found[field];
      return merged;
    });
  }

  function handleChange<K extends keyof AuctionFormValues>(field: K, value: AuctionFormValues[K]) {
    const next = { ...values, [field]: value };
    setValues(next);
    setServerErrors((current) => ({ ...current, [field]: undefined }));
    setFormError(null);
    // The picker has no typing phase: its schedule rules show as soon as a date is chosen.
    const schedule: AuctionField[] = field === 'endTime' || (field === 'status' && touched.has('endTime')) ? ['endTime'] : [];
    if (field === 'endTime') setTouched((current) => new Set(current).add('endTime'));
    recheck(next, schedule);
  }

  function handleBlur(field: AuctionField) {
    const nextTouched = new Set(touched).add(field);
    setTouched(nextTouched);
    recheck(values, nextTouched);
  }

  function handleSaveError(error: unknown) {
    // 400 (invalid field) and 409 (say, a price locked by bids) both may name fields.
    if (isApiError(error) && Object.keys(error.fields).length > 0) {
      const { fields, others } = serverFieldErrors(error.fields, isAuctionField);
      setServerErrors(fields);
      if (others.length > 0 || Object.keys(fields).length === 0) setFormError(others.join(' ') || error.message);
      setFocusRequest((n) => n + 1);
      return;
    }
    setFormError(apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('auctionForm.saveFailed') }));
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // A ref, not isPending: a double click lands before React re-renders.
    if (isSubmittingRef.current || isSaving || uploads.isUploading) return;
    setFormError(null);
    setHasSubmitted(true);
    setTouched(new Set(AUCTION_FIELDS));
    setServerErrors({});
    const result = validateAuction(values, uploads.urls, context());
    setClientErrors(result.ok ? {} : result.errors);
    if (!result.ok || uploads.hasFailed) {
      setFocusRequest((n) => n + 1);
      return;
    }
    isSubmittingRef.current = true;
    const onSettled = () => {
      isSubmittingRef.current = false;
    };
    const input: AuctionInput = result.input;
    if (detail) {
      update.mutate(
        { id: detail.id, input },
        {
          onSuccess: () => {
            notifications.show({ color: 'green', message: t('auctionForm.updated') });
            onSaved();
          },
          onError: handleSaveError,
          onSettled,
        },
      );
    } else {
      create.mutate(input, {
        onSuccess: (auction) => {
          notifications.show({ color: 'green', message: t('auctionForm.created', { id: auction.id }) });
          onSaved();
        },
        onError: handleSaveError,
        onSettled,
      });
    }
  }

  // The image list changes outside handleChange: an image error shown earlier is re-checked here.
  const isImageErrorStale = Boolean(clientErrors.images) && !hasImageError(values, uploads.urls, context());
  const errors: FieldErrors = {};
  for (const field of AUCTION_FIELDS) {
    const key = field === 'images' && isImageErrorStale ? undefined : clientErrors[field];
    const message = serverErrors[field] ?? (key ? t(`auctionForm.errors.${key}`) : undefined);
    if (message) errors[field] = message;
  }
  if (!errors.images && hasSubmitted && uploads.hasFailed) errors.images = t('auctionForm.images.failedPending');
  const fieldProps = { values, errors, onChange: handleChange, onBlur: handleBlur, lock };

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label={detail ? t('auctionForm.titleEdit') : t('auctionForm.titleCreate')}>
      <Stack gap="md">
        {lock && <LockBanner />}
        <TextFields {...fieldProps} />
        <CategoryField {...fieldProps} />
        <PriceFields {...fieldProps} />
        <DetailFields {...fieldProps} />
        <EndTimeField
          value={values.endTime}
          onChange={(value) => handleChange('endTime', value)}
          error={errors.endTime}
          lockedFrom={lock ? lock.endTime : undefined}
          frozenBecause={frozenBecause}
        />
        <StatusField {...fieldProps} currentStatus={detail?.status ?? null} frozenBecause={frozenBecause} />
        <Divider />
        <ImageUploader uploads={uploads} error={errors.images} kept={keptImages} />
        {formError && (
          <Alert color="red" variant="light" role="alert" title={t('auctionForm.saveFailedTitle')}>
            {formError}
          </Alert>
        )}
        <Box pos="sticky" bottom={0} py="sm" bg="var(--mantine-color-body)" style={{ zIndex: 2, borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Text size="xs" c="dimmed" aria-live="polite">
              {uploads.isUploading ? t('auctionForm.images.waitForUploads') : ''}
            </Text>
            <Group gap="sm" ml="auto">
              <Button variant="default" onClick={onCancel}>
                {t('auctionForm.cancel')}
              </Button>
              <Button type="submit" loading={isSaving} disabled={isSaving || uploads.isUploading}>
                {t('auctionForm.save')}
              </Button>
            </Group>
          </Group>
        </Box>
      </Stack>
    </form>
  );
}
