import { Button, Group, Input, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../i18n';
import { formatDate } from '../lib/dates';
import { CHOSEN_FORMAT } from '../lib/end-time';
import { composeSchedule, firstOfferedDate, mexicoDateOf, mexicoTimeOf, type ScheduleError } from './schedule';
import { presetScheduledAt, SCHEDULE_PRESETS_MINUTES } from './session-form';

interface ScheduleFieldProps {
  scheduledAt: number | null;
  onScheduledAt: (value: number | null) => void;
  /** The form's own error code for the field (after a submit), shown when the field has none. */
  error?: string;
  /** Editing a session whose day already passed: that day stays allowed. */
  keepDate?: string | null;
}

/**
 * 'Fecha y hora' of 'Crear Sesión' and 'Editar Sesión', in Mexico City time: a native date field
 * (its calendar starts today, keyboard and phone alike) and a time typed as text, read exactly as
 * typed. The parent gets the instant once both make one, null meanwhile.
 */
export function ScheduleField({ scheduledAt, onScheduledAt, error, keepDate = null }: ScheduleFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const [date, setDate] = useState(() => (scheduledAt === null ? '' : mexicoDateOf(scheduledAt)));
  const [time, setTime] = useState(() => (scheduledAt === null ? '' : mexicoTimeOf(scheduledAt)));
  const [touched, setTouched] = useState({ date: false, time: false });
  // What this field last told the parent, so a change from outside (a preset) can be told apart.
  const emitted = useRef<number | null>(scheduledAt);
  const today = mexicoDateOf(Date.now());
  const minDate = firstOfferedDate(today, keepDate);

  useEffect(() => {
    if (scheduledAt === emitted.current) return;
    // A preset, or the form reset.
    emitted.current = scheduledAt;
    setDate(scheduledAt === null ? '' : mexicoDateOf(scheduledAt));
    setTime(scheduledAt === null ? '' : mexicoTimeOf(scheduledAt));
  }, [scheduledAt]);

  const result = composeSchedule({ date, time, minDate: today, keepDate });
  const update = (next: { date?: string; time?: string }) => {
    const d = next.date ?? date;
    const tm = next.time ?? time;
    setDate(d);
    setTime(tm);
    const composed = composeSchedule({ date: d, time: tm, minDate: today, keepDate });
    const value = composed.ok ? composed.value : null;
    emitted.current = value;
    onScheduledAt(value);
  };

  const own: ScheduleError | null = result.ok ? null : result.error;
  const message = (code: string) => t(`livehub.errors.${code}` as 'livehub.errors.invalid', { defaultValue: t('livehub.errors.invalid') });
  const dateError = own === 'scheduleDateRequired' || own === 'scheduleDatePast' ? (touched.date || error ? message(own) : undefined) : undefined;
  const timeError =
    own === 'scheduleTimeRequired' || own === 'scheduleTimeInvalid' ? ((touched.time && time.trim() !== '') || error ? message(own) : undefined) : undefined;
  const formError = !own && error ? message(error) : undefined;

  return (
    <Stack gap={4} role="group" aria-labelledby={`${id}-label`} aria-describedby={`${id}-hint`}>
      <Input.Label required id={`${id}-label`}>
        {t('livehub.create.date')}
      </Input.Label>
      <Input.Description id={`${id}-hint`}>{t('livehub.create.dateHint')}</Input.Description>
      <SimpleGrid cols={2} spacing="xs">
        <TextInput
          type="date"
          label={t('livehub.create.day')}
          min={minDate}
          value={date}
          onChange={(e) => update({ date: e.currentTarget.value })}
          onBlur={() => setTouched((s) => ({ ...s, date: true }))}
          error={dateError ?? formError}
          required
        />
        <TextInput
          label={t('livehub.create.time')}
          placeholder={t('livehub.create.timePlaceholder')}
          inputMode="decimal"
          autoComplete="off"
          maxLength={12}
          value={time}
          onChange={(e) => update({ time: e.currentTarget.value })}
          onBlur={() => setTouched((s) => ({ ...s, time: true }))}
          error={timeError}
          required
        />
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {t('livehub.create.timeHint')}
      </Text>
      <Group gap={6} role="group" aria-label={t('livehub.create.presets')}>
        <Text size="xs" c="dimmed" aria-hidden="true">
          {t('livehub.create.presets')}
        </Text>
        {SCHEDULE_PRESETS_MINUTES.map((minutes) => (
          <Button key={minutes} size="compact-xs" variant="light" onClick={() => onScheduledAt(presetScheduledAt(minutes))}>
            {minutes === 0
              ? t('livehub.create.presetNow')
              : minutes < 60
                ? t('livehub.create.presetMinutes', { minutes })
                : t('livehub.create.presetHours', { hours: minutes / 60 })}
          </Button>
        ))}
      </Group>
      {result.ok && (
        <Input.Description aria-live="polite" data-testid="schedule-chosen">
          {t('livehub.create.dateChosen', { date: formatDate(result.value, CHOSEN_FORMAT) })}
        </Input.Description>
      )}
    </Stack>
  );
}
