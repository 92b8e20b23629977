import { Alert, Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { SLUG_INPUT_MAX } from '../../domain/live.js';
import { useCreateSession } from '../api/live-hub';
import { useMe } from '../api/me';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { type BillFormField, type BillFormValues, formValuesOf, parseBillForm } from './after-show/bill-form-values';
import { BillShippingFields } from './after-show/bill-shipping-fields';
import { PHONE_CONTROLS_CLASS, useIsPhoneHub } from './hub-layout';
import { DiscardPrompt, useDiscardGuard } from './hub-prompts';
import { HUB_WINDOW } from './hub-windows';
import { RecordingSwitch, TitleAndDateFields, useFieldError, WhatsappField } from './session-fields';
import {
  type CreateSessionValues,
  canCreateSession,
  EMPTY_CREATE_VALUES,
  type FieldErrors,
  isCreateDirty,
  parseCreateSession,
  slugPreview,
} from './session-form';
import { useSubmission } from './use-submission';

/**
 * 'Crear Sesión' (SPEC §5 "Create session"); after creating, the new session is loaded. The form
 * locks in the click that sends it, and a retry carries the same Idempotency-Key: one session.
 */
export function CreateSessionModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (id: string) => void }) {
  const { t } = useTranslation();
  const isPhone = useIsPhoneHub();
  const [values, setValues] = useState<CreateSessionValues>(EMPTY_CREATE_VALUES);
  const [errors, setErrors] = useState<FieldErrors>({});
  /** 'Ensayo': a practice show with simulated bidders (server: features/live/sessions/rehearsal-snapshot.ts). */
  const [rehearsal, setRehearsal] = useState(false);
  /** 'Envío del show', folded: sent only when the seller opened it. */
  const [isShippingOpen, setIsShippingOpen] = useState(false);
  const [shipping, setShipping] = useState<BillFormValues>(() => formValuesOf(undefined));
  const [shippingErrors, setShippingErrors] = useState<Partial<Record<BillFormField, string>>>({});
  const create = useCreateSession();
  // 'Grabar el show' starts as the company's 'Grabar los shows'; it is sent only once the seller
  // turns it, so the server applies the company's default itself.
  const recordsShows = useMe().data?.companyRecordsShows ?? true;
  const submission = useSubmission();
  const fieldError = useFieldError(errors);
  const guard = useDiscardGuard({ opened, isDirty: (isCreateDirty(values) || isShippingOpen) && !submission.isLocked, onClose });

  useEffect(() => {
    if (opened) {
      setValues(EMPTY_CREATE_VALUES);
      setErrors({});
      setRehearsal(false);
      setIsShippingOpen(false);
      setShipping(formValuesOf(undefined));
      setShippingErrors({});
      create.reset();
    }
  }, [opened, create.reset]);

  const set = <K extends keyof CreateSessionValues>(key: K, value: CreateSessionValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
    submission.forget();
  };

  const submit = () => {
    if (!canCreateSession(values) || submission.isLocked) return;
    const parsed = parseCreateSession(values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    const rules = isShippingOpen ? parseBillForm(shipping) : null;
    if (rules && !rules.ok) {
      setShippingErrors(rules.errors);
      return;
    }
    const input = { ...parsed.value, ...(rehearsal ? { rehearsal } : {}), ...(rules?.ok ? { shippingRules: rules.input } : {}) };
    const key = submission.begin(input);
    if (!key) return;
    create.mutate(
      { input, key },
      {
        onSuccess: (detail) => {
          submission.end('success');
          onCreated(detail.session.id);
        },
        onError: () => submission.end('failure'),
      },
    );
  };

  const slug = slugPreview(values);
  const whatsappProblem = errors.whatsappLink === 'whatsappInvalid';

  return (
    <>
      <Modal
        stackId={HUB_WINDOW.createSession}
        opened={opened}
        onClose={guard.requestClose}
        title={t('livehub.create.title')}
        size="md"
        fullScreen={isPhone}
        centered={!isPhone}
        className={isPhone ? PHONE_CONTROLS_CLASS : undefined}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <fieldset disabled={submission.isLocked} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Stack gap="sm">
              <TitleAndDateFields
                title={values.title}
                onTitle={(v) => set('title', v)}
                scheduledAt={values.scheduledAt}
                onScheduledAt={(v) => set('scheduledAt', v)}
                errors={errors}
              />
              <TextInput
                label={t('livehub.create.slug')}
                description={t('livehub.create.slugHint')}
                value={values.sellerSlug}
                onChange={(e) => set('sellerSlug', e.currentTarget.value)}
                maxLength={SLUG_INPUT_MAX}
                error={fieldError('sellerSlug')}
              />
              <Text size="xs" c="dimmed" aria-live="polite" data-testid="slug-preview">
                {t('livehub.create.slugPreview', { path: slug ? `/live/${slug}/…` : '/live/…' })}
              </Text>
              <WhatsappField value={values.whatsappLink} onChange={(v) => set('whatsappLink', v)} errors={whatsappProblem ? {} : errors} />
              <RecordingSwitch checked={values.recording ?? recordsShows} onChange={(v) => set('recording', v)} />
              <Checkbox
                label={t('livehub.rehearsal.checkbox')}
                description={t('livehub.rehearsal.hint')}
                checked={rehearsal}
                onChange={(e) => {
                  setRehearsal(e.currentTarget.checked);
                  submission.forget();
                }}
                data-testid="create-rehearsal"
              />
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={() => {
                  setIsShippingOpen((o) => !o);
                  submission.forget();
                }}
                aria-expanded={isShippingOpen}
                w="fit-content"
              >
                {t('showBilling.shipping.atCreate')}
              </Button>
              {isShippingOpen && (
                <Stack gap="xs">
                  <Text size="xs" c="dimmed">
                    {t('showBilling.shipping.atCreateHint')}
                  </Text>
                  <BillShippingFields
                    values={shipping}
                    onChange={(field, value) => {
                      setShipping((v) => ({ ...v, [field]: value }));
                      setShippingErrors((e) => ({ ...e, [field]: undefined }));
                      submission.forget();
                    }}
                    errors={shippingErrors}
                  />
                </Stack>
              )}
              {whatsappProblem && (
                <Alert color="red" variant="light" role="alert">
                  {t('livehub.errors.whatsappInvalid')}
                </Alert>
              )}
              {create.isError && (
                <Alert color="red" variant="light" role="alert" title={t('livehub.create.failed')}>
                  {apiErrorText(create.error, { networkMessage: t('common.networkError'), fallback: t('livehub.create.failed') })}
                </Alert>
              )}
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={guard.requestClose}>
                  {t('livehub.create.cancel')}
                </Button>
                <Button type="submit" disabled={!canCreateSession(values)} loading={submission.isLocked}>
                  {t('livehub.create.submit')}
                </Button>
              </Group>
            </Stack>
          </fieldset>
        </form>
      </Modal>
      <DiscardPrompt stackId={HUB_WINDOW.createDiscard} {...guard.prompt} />
    </>
  );
}
