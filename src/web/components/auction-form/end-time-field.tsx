import { Button, Group, Input, Stack, Text } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { END_TIME_PRESETS_MINUTES } from '../../../domain/auctions.js';
import { useTranslation } from '../../i18n';
import { formatDate } from '../../lib/dates';
import { CHOSEN_FORMAT, fromMexicoWallTime, presetEndTime, toMexicoWallTime } from '../../lib/end-time';
import { LockIcon } from '../panel-icons';
import { LockedNote } from './lock-notes';

interface EndTimeFieldProps {
  value: number | null;
  onChange: (value: number | null) => void;
  error?: string;
  /** Bids hold the auction (bidders relied on its end): the end may only move later than this; undefined when free. */
  lockedFrom?: number | null;
  /** A winner, a payment or an end with bids: the end may not move at all, for this reason. */
  frozenBecause?: string | null;
}

/**
 * 'Fecha de cierre' (SPEC §5): a date-time in Mexico City time whatever the browser's zone, with
 * quick presets, and the chosen moment spelled out so nobody has to guess the zone.
 */
export function EndTimeField({ value, onChange, error, lockedFrom, frozenBecause }: EndTimeFieldProps) {
  const { t } = useTranslation();
  const isLocked = lockedFrom !== undefined || Boolean(frozenBecause);
  // With no end stored, the Live Hub times the lot: nothing to move here.
  const isFrozen = lockedFrom === null || Boolean(frozenBecause);
  const isTooEarly = (ms: number) => isFrozen || (isLocked && lockedFrom != null && ms < lockedFrom);
  const lockNote = frozenBecause ?? t('auctionForm.locked.endTime');
  // An old end time kept on an edit is allowed; say what it means.
  const isPast = !error && value !== null && value <= Date.now();

  return (
    <Stack gap={6}>
      <DateTimePicker
        label={t('auctionForm.fields.endTime')}
        description={isLocked ? <LockedNote>{lockNote}</LockedNote> : t('auctionForm.endTime.hint')}
        placeholder={t('auctionForm.endTime.placeholder')}
        value={toMexicoWallTime(value)}
        onChange={(next) => onChange(fromMexicoWallTime(next))}
        valueFormat="DD/MM/YYYY HH:mm"
        locale="es"
        clearable={!isLocked}
        disabled={isFrozen}
        rightSection={isFrozen ? <LockIcon /> : undefined}
        minDate={lockedFrom != null ? (toMexicoWallTime(lockedFrom) ?? undefined) : undefined}
        clearButtonProps={{ 'aria-label': t('auctionForm.endTime.clear') }}
        submitButtonProps={{ 'aria-label': t('auctionForm.endTime.confirm') }}
        timePickerProps={{ format: '24h' }}
        error={error}
        popoverProps={{ withinPortal: true }}
      />
      <Group gap={6} role="group" aria-label={t('auctionForm.endTime.presets')}>
        <Text size="xs" c="dimmed" aria-hidden="true">
          {t('auctionForm.endTime.presets')}
        </Text>
        {END_TIME_PRESETS_MINUTES.map((minutes) => (
          <Button
            key={minutes}
            size="compact-xs"
            variant="light"
            disabled={isTooEarly(presetEndTime(minutes))}
            onClick={() => onChange(presetEndTime(minutes))}
          >
            {t('auctionForm.endTime.preset', { minutes })}
          </Button>
        ))}
      </Group>
      <Input.Description aria-live="polite" data-testid="end-time-summary">
        {value === null ? t('auctionForm.endTime.none') : t('auctionForm.endTime.chosen', { date: formatDate(value, CHOSEN_FORMAT) })}
      </Input.Description>
      {isPast && (
        <Text size="xs" c="orange">
          {t('auctionForm.endTime.past')}
        </Text>
      )}
    </Stack>
  );
}
