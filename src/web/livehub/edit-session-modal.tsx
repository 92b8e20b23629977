import { Alert, Button, Divider, Group, Loader, Modal, NumberInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { ANTI_SNIPE_MAX_SECONDS, MIN_INCREMENT_MAX, TIMER_MAX_SECONDS, TIMER_MIN_SECONDS, TIMER_STEP_SECONDS } from '../../domain/live.js';
import { type LiveSessionData, useLiveSession } from '../api/live';
import { useUpdateSession } from '../api/live-hub';
import { AmountInput } from '../components/amount-input';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { CoverSection } from './cover-section';
import { COMPACT_QUERY } from './hub-layout';
import { DiscardPrompt, useDiscardGuard } from './hub-prompts';
import { HUB_WINDOW } from './hub-windows';
import { LotsPanel } from './lots-panel';
import { mexicoDateOf } from './schedule';
import { TitleAndDateFields, useFieldError, WhatsappField } from './session-fields';
import { canSaveSession, type EditSessionValues, editValuesFrom, type FieldErrors, parseEditSession } from './session-form';

interface EditSessionModalProps {
  sessionId: string | null;
  onClose: () => void;
  onAddLot: (sessionId: string) => void;
}

/**
 * 'Editar Sesión' (SPEC §5 "Edit session"): details, bidding settings, the cover and the lots.
 * Closing it with unsaved details asks first (the cover and the lots save as they change).
 */
export function EditSessionModal({ sessionId, onClose, onAddLot }: EditSessionModalProps) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery(COMPACT_QUERY) ?? false;
  const opened = sessionId !== null;
  const [isDirty, setDirty] = useState(false);
  useEffect(() => {
    if (!opened) setDirty(false);
  }, [opened]);
  const guard = useDiscardGuard({ opened, isDirty, onClose });
  return (
    <>
      <Modal
        stackId={HUB_WINDOW.edit}
        opened={opened}
        onClose={guard.requestClose}
        title={t('livehub.edit.title')}
        size="xl"
        fullScreen={isMobile}
        centered={!isMobile}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {sessionId && (
          <EditBody key={sessionId} sessionId={sessionId} onClose={guard.requestClose} onDirtyChange={setDirty} onAddLot={() => onAddLot(sessionId)} />
        )}
      </Modal>
      <DiscardPrompt stackId={HUB_WINDOW.editDiscard} {...guard.prompt} />
    </>
  );
}

interface EditBodyProps {
  sessionId: string;
  onClose: () => void;
  onDirtyChange: (isDirty: boolean) => void;
  onAddLot: () => void;
}

function EditBody({ sessionId, onClose, onDirtyChange, onAddLot }: EditBodyProps) {
  const { t } = useTranslation();
  const detail = useLiveSession(sessionId);
  if (detail.data) {
    return (
      <Stack gap="lg">
        <EditForm detail={detail.data} onClose={onClose} onDirtyChange={onDirtyChange} />
        <Divider />
        <CoverSection detail={detail.data} />
        <Divider />
        <LotsPanel detail={detail.data} embedded onAddLot={onAddLot} />
      </Stack>
    );
  }
  if (detail.data === null) {
    return (
      <Alert color="red" variant="light" role="alert">
        {t('livehub.edit.notFound')}
      </Alert>
    );
  }
  if (detail.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        <Group justify="space-between" gap="xs">
          <Text size="sm">{apiErrorText(detail.error, { networkMessage: t('common.networkError'), fallback: t('livehub.edit.loadFailed') })}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void detail.refetch()}>
            {t('common.retry')}
          </Button>
        </Group>
      </Alert>
    );
  }
  return (
    <Group gap="xs" justify="center" py="lg" role="status">
      <Loader size="sm" />
      <Text size="sm">{t('livehub.edit.loading')}</Text>
    </Group>
  );
}

function EditForm({ detail, onClose, onDirtyChange }: { detail: LiveSessionData; onClose: () => void; onDirtyChange: (isDirty: boolean) => void }) {
  const { t } = useTranslation();
  // Seeded once: a room event must not replace what is being typed.
  const [values, setValues] = useState<EditSessionValues>(() => editValuesFrom(detail.session));
  // The latest values and what is saved: the form is dirty while they differ. Told to the window in
  // the same event as the keystroke, so an Escape right after typing already asks.
  const latest = useRef(values);
  const saved = useRef(values);
  const [keepDate] = useState(() => mexicoDateOf(detail.session.scheduledAt));
  const [errors, setErrors] = useState<FieldErrors>({});
  const tellDirty = () => onDirtyChange(JSON.stringify(latest.current) !== JSON.stringify(saved.current));
  const update = useUpdateSession();
  const fieldError = useFieldError(errors);
  const canEdit = detail.canEdit;

  const set = <K extends keyof EditSessionValues>(key: K, value: EditSessionValues[K]) => {
    latest.current = { ...latest.current, [key]: value };
    setValues(latest.current);
    tellDirty();
    const nested = key === 'minIncrement' || key === 'antiSnipeSeconds' || key === 'timerSecondsDefault' ? `biddingConfig.${key}` : key;
    setErrors((e) => ({ ...e, [nested]: undefined }));
  };

  const save = () => {
    if (!canSaveSession(values) || update.isPending) return;
    const parsed = parseEditSession(values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    const sent = values;
    update.mutate(
      { id: detail.session.id, input: parsed.value },
      {
        onSuccess: () => {
          saved.current = sent;
          tellDirty();
          notifications.show({ color: 'green', message: t('livehub.edit.saved') });
        },
      },
    );
  };

  const whatsappProblem = errors.whatsappLink === 'whatsappInvalid';
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="sm">
          <Title order={3} size="h6">
            {t('livehub.edit.details')}
          </Title>
          <TitleAndDateFields
            title={values.title}
            onTitle={(v) => set('title', v)}
            scheduledAt={values.scheduledAt}
            onScheduledAt={(v) => set('scheduledAt', v)}
            errors={errors}
            keepDate={keepDate}
          />
          <WhatsappField value={values.whatsappLink} onChange={(v) => set('whatsappLink', v)} errors={whatsappProblem ? {} : errors} />
          {whatsappProblem && (
            <Alert color="red" variant="light" role="alert">
              {t('livehub.errors.whatsappInvalid')}
            </Alert>
          )}
          <Title order={3} size="h6" mt="xs">
            {t('livehub.edit.bidding')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <AmountInput
              label={t('livehub.edit.minIncrement')}
              value={values.minIncrement}
              onChange={(v) => set('minIncrement', v)}
              min={1}
              max={MIN_INCREMENT_MAX}
              error={fieldError('biddingConfig.minIncrement')}
            />
            <NumberInput
              label={t('livehub.edit.antiSnipe')}
              description={t('livehub.edit.antiSnipeHint')}
              value={values.antiSnipeSeconds}
              onChange={(v) => set('antiSnipeSeconds', v)}
              min={0}
              max={ANTI_SNIPE_MAX_SECONDS}
              step={1}
              allowDecimal={false}
              allowNegative={false}
              error={fieldError('biddingConfig.antiSnipeSeconds')}
            />
            <NumberInput
              label={t('livehub.edit.timerDefault')}
              value={values.timerSecondsDefault}
              onChange={(v) => set('timerSecondsDefault', v)}
              min={TIMER_MIN_SECONDS}
              max={TIMER_MAX_SECONDS}
              step={TIMER_STEP_SECONDS}
              allowDecimal={false}
              allowNegative={false}
              error={fieldError('biddingConfig.timerSecondsDefault')}
            />
          </SimpleGrid>
          {update.isError && (
            <Alert color="red" variant="light" role="alert" title={t('livehub.edit.saveFailed')}>
              {apiErrorText(update.error, { networkMessage: t('common.networkError'), fallback: t('livehub.edit.saveFailed') })}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('livehub.edit.cancel')}
            </Button>
            {canEdit && (
              <Button type="submit" disabled={!canSaveSession(values)} loading={update.isPending}>
                {t('livehub.edit.save')}
              </Button>
            )}
          </Group>
        </Stack>
      </fieldset>
    </form>
  );
}
