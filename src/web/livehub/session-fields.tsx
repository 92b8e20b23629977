import { Stack, Switch, TextInput } from '@mantine/core';
import { SESSION_TITLE_MAX, WHATSAPP_LINK_MAX } from '../../domain/live.js';
import { usePublicConfig } from '../api/config';
import { useTranslation } from '../i18n';
import { ScheduleField } from './schedule-field';
import type { FieldErrors } from './session-form';

/** A field's Spanish error from its issue code (`livehub.errors.<code>`). */
export function useFieldError(errors: FieldErrors) {
  const { t } = useTranslation();
  return (field: string): string | undefined => {
    const code = errors[field];
    return code ? t(`livehub.errors.${code}` as 'livehub.errors.invalid', { defaultValue: t('livehub.errors.invalid') }) : undefined;
  };
}

/** Title and scheduled date-time (Mexico City time whatever the browser's zone), shared by 'Crear Sesión' and 'Editar Sesión'. */
export function TitleAndDateFields(props: {
  title: string;
  onTitle: (value: string) => void;
  scheduledAt: number | null;
  onScheduledAt: (value: number | null) => void;
  errors: FieldErrors;
  /** Editing a session whose day already passed: that day stays allowed. */
  keepDate?: string | null;
}) {
  const { t } = useTranslation();
  const fieldError = useFieldError(props.errors);
  return (
    <Stack gap="sm">
      <TextInput
        label={t('livehub.create.name')}
        placeholder={t('livehub.create.namePlaceholder')}
        value={props.title}
        onChange={(e) => props.onTitle(e.currentTarget.value)}
        maxLength={SESSION_TITLE_MAX}
        required
        error={fieldError('title')}
        data-autofocus
      />
      <ScheduleField scheduledAt={props.scheduledAt} onScheduledAt={props.onScheduledAt} error={props.errors.scheduledAt} keepDate={props.keepDate} />
    </Stack>
  );
}

export function WhatsappField({ value, onChange, errors }: { value: string; onChange: (value: string) => void; errors: FieldErrors }) {
  const { t } = useTranslation();
  const fieldError = useFieldError(errors);
  return (
    <TextInput
      label={t('livehub.create.whatsapp')}
      placeholder={t('livehub.create.whatsappPlaceholder')}
      type="url"
      inputMode="url"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      maxLength={WHATSAPP_LINK_MAX}
      error={fieldError('whatsappLink')}
    />
  );
}

/**
 * 'Grabar el show': the show is recorded for its replay. Agora's cloud cannot be recorded, so with
 * it the switch is off, disabled and says why.
 */
export function RecordingSwitch({ checked, onChange }: { checked: boolean; onChange: (value: boolean) => void }) {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const canRecord = config.data?.video.provider !== 'agora';
  return (
    <Switch
      label={t('livehub.recording.label')}
      description={canRecord ? t('livehub.recording.hint') : t('livehub.recording.needsRecorder')}
      checked={canRecord && checked}
      disabled={!canRecord}
      onChange={(e) => onChange(e.currentTarget.checked)}
      data-testid="session-recording"
    />
  );
}
