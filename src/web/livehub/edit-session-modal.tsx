import { Alert, Button, Divider, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/client';
import { type LiveSessionData, useLiveSession } from '../api/live';
import { useUpdateSession } from '../api/live-hub';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { BiddingFields } from './bidding-fields';
import { CoverSection } from './cover-section';
import { PHONE_CONTROLS_CLASS, useIsPhoneHub } from './hub-layout';
import { DiscardPrompt, useDiscardGuard } from './hub-prompts';
import { HUB_WINDOW } from './hub-windows';
import { LotsPanel } from './lots-panel';
import { WindowAutoAdvance } from './phone/phone-sheet';
import { mexicoDateOf } from './schedule';
import { RecordingSwitch, TitleAndDateFields, useFieldError, WhatsappField } from './session-fields';
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
  const isPhone = useIsPhoneHub();
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
        fullScreen={isPhone}
        centered={!isPhone}
        className={isPhone ? PHONE_CONTROLS_CLASS : undefined}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <WindowAutoAdvance sessionId={sessionId} />
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

/** The fields whose errors a change of `key` may fix: the band table's rows for `bands`, the seconds for their modes. */
function errorBelongsTo(field: string, key: keyof EditSessionValues): boolean {
  if (key === 'bands' || key === 'incrementKind') return field.startsWith('biddingConfig.incrementBands');
  if (key === 'isAutoAdvance') return field === 'biddingConfig.autoAdvanceSeconds';
  if (key === 'timerMode') return field === 'biddingConfig.timerMode';
  return false;
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
  // The server's own words for a refused field, by the same keys ('biddingConfig.incrementBands.1.from').
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const tellDirty = () => onDirtyChange(JSON.stringify(latest.current) !== JSON.stringify(saved.current));
  const update = useUpdateSession();
  const fieldError = useFieldError(errors);
  const errorOf = (field: string) => fieldError(field) ?? serverErrors[field];
  const canEdit = detail.canEdit;

  const set = <K extends keyof EditSessionValues>(key: K, value: EditSessionValues[K]) => {
    latest.current = { ...latest.current, [key]: value };
    setValues(latest.current);
    tellDirty();
    // A change takes away the errors it may have fixed: its own field's, or every row's for the band table.
    const clear = (e: Record<string, string | undefined>) => {
      const next = { ...e };
      for (const field of Object.keys(next)) if (field === key || field === `biddingConfig.${key}` || errorBelongsTo(field, key)) delete next[field];
      return next;
    };
    setErrors((e) => clear(e));
    setServerErrors((e) => clear(e) as Record<string, string>);
  };

  const save = () => {
    if (!canSaveSession(values) || update.isPending) return;
    const parsed = parseEditSession(values, detail.session.biddingConfig);
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
          setServerErrors({});
          notifications.show({ color: 'green', message: t('livehub.edit.saved') });
        },
        onError: (error) => {
          if (error instanceof ApiError) setServerErrors(error.fields);
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
          <RecordingSwitch checked={values.recording} onChange={(v) => set('recording', v)} />
          {errorOf('recording') && (
            <Text size="sm" c="red" role="alert">
              {errorOf('recording')}
            </Text>
          )}
          <Title order={3} size="h6" mt="xs">
            {t('livehub.edit.bidding')}
          </Title>
          <BiddingFields values={values} set={set} errorOf={errorOf} />
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
