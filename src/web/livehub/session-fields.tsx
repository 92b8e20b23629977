import { Button, Group, Input, Stack, Text, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { SESSION_TITLE_MAX, WHATSAPP_LINK_MAX } from '../../domain/live.js';
import { CHOSEN_FORMAT, fromMexicoWallTime, toMexicoWallTime } from '../admin/auction-form/end-time';
import { useTranslation } from '../i18n';
import { formatDate } from '../lib/dates';
import { type FieldErrors, presetScheduledAt, SCHEDULE_PRESETS_MINUTES } from './session-form';

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
      <Stack gap={4}>
        <DateTimePicker
          label={t('livehub.create.date')}
          description={t('livehub.create.dateHint')}
          placeholder={t('livehub.create.datePlaceholder')}
          value={toMexicoWallTime(props.scheduledAt)}
          onChange={(next) => props.onScheduledAt(fromMexicoWallTime(next))}
          valueFormat="DD/MM/YYYY HH:mm"
          locale="es"
          clearable
          required
          clearButtonProps={{ 'aria-label': t('livehub.create.clearDate') }}
          submitButtonProps={{ 'aria-label': t('livehub.create.confirmDate') }}
          timePickerProps={{ format: '24h' }}
          error={fieldError('scheduledAt')}
          popoverProps={{ withinPortal: true }}
        />
        <Group gap={6} role="group" aria-label={t('livehub.create.presets')}>
          <Text size="xs" c="dimmed" aria-hidden="true">
            {t('livehub.create.presets')}
          </Text>
          {SCHEDULE_PRESETS_MINUTES.map((minutes) => (
            <Button key={minutes} size="compact-xs" variant="light" onClick={() => props.onScheduledAt(presetScheduledAt(minutes))}>
              {minutes === 0
                ? t('livehub.create.presetNow')
                : minutes < 60
                  ? t('livehub.create.presetMinutes', { minutes })
                  : t('livehub.create.presetHours', { hours: minutes / 60 })}
            </Button>
          ))}
        </Group>
        {props.scheduledAt !== null && (
          <Input.Description aria-live="polite">{t('livehub.create.dateChosen', { date: formatDate(props.scheduledAt, CHOSEN_FORMAT) })}</Input.Description>
        )}
      </Stack>
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
