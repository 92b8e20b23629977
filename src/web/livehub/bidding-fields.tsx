import { ActionIcon, Alert, Button, Group, Input, NumberInput, SegmentedControl, SimpleGrid, Stack, Switch, Table, Text, VisuallyHidden } from '@mantine/core';
import {
  ANTI_SNIPE_MAX_SECONDS,
  COUNTER_BID_MAX_SECONDS,
  COUNTER_BID_MIN_SECONDS,
  INCREMENT_BANDS_MAX,
  MIN_INCREMENT_MAX,
  TIMER_MAX_SECONDS,
  TIMER_MIN_SECONDS,
  TIMER_MODES,
  TIMER_STEP_SECONDS,
  type TimerMode,
} from '../../domain/live.js';
import { AmountInput } from '../components/amount-input';
import { TrashIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { AUTO_ADVANCE_RANGE, BANDS_FIELD, type BandRowValues, bandField, type EditSessionValues, suggestedBandRows } from './session-form';

type Set = <K extends keyof EditSessionValues>(key: K, value: EditSessionValues[K]) => void;

interface BiddingFieldsProps {
  values: EditSessionValues;
  set: Set;
  /** A field's Spanish error, by its key ('biddingConfig.incrementBands.2.from'), from the form's check or the server's answer. */
  errorOf: (field: string) => string | undefined;
}

/** Seconds as typed: no clamping on blur, so what the seller typed stays next to its error. */
const seconds = { step: 1, allowDecimal: false, allowNegative: false, clampBehavior: 'none' as const };

/**
 * 'Editar Sesión''s bidding settings: the timer format (Contrapuja with W and R, Muerte súbita,
 * Extender with its window), the increment (flat or by price band, with an editable table), the
 * default timer and 'Avance automático'.
 */
export function BiddingFields({ values, set, errorOf }: BiddingFieldsProps) {
  const { t } = useTranslation();
  const mode = values.timerMode;
  return (
    <Stack gap="sm">
      <Input.Wrapper label={t('livehub.formats.timerMode')} description={t(`livehub.formats.${mode}Hint`)}>
        <SegmentedControl
          fullWidth
          mt={4}
          aria-label={t('livehub.formats.timerMode')}
          value={mode}
          onChange={(v) => set('timerMode', v as TimerMode)}
          data={TIMER_MODES.map((m) => ({ value: m, label: t(`livehub.formats.${m}`) }))}
          data-testid="timer-mode"
        />
      </Input.Wrapper>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        {mode === 'counterBid' && (
          <>
            <NumberInput
              label={t('livehub.formats.window')}
              description={t('livehub.formats.windowHint')}
              value={values.counterBidWindowSeconds}
              onChange={(v) => set('counterBidWindowSeconds', v)}
              min={COUNTER_BID_MIN_SECONDS}
              max={COUNTER_BID_MAX_SECONDS}
              {...seconds}
              error={errorOf('biddingConfig.counterBidWindowSeconds')}
              data-testid="counter-bid-window"
            />
            <NumberInput
              label={t('livehub.formats.reset')}
              description={t('livehub.formats.resetHint')}
              value={values.counterBidResetSeconds}
              onChange={(v) => set('counterBidResetSeconds', v)}
              min={COUNTER_BID_MIN_SECONDS}
              max={COUNTER_BID_MAX_SECONDS}
              {...seconds}
              error={errorOf('biddingConfig.counterBidResetSeconds')}
              data-testid="counter-bid-reset"
            />
          </>
        )}
        {mode === 'extend' && (
          <NumberInput
            label={t('livehub.formats.extendWindow')}
            description={t('livehub.formats.extendWindowHint')}
            value={values.antiSnipeSeconds}
            onChange={(v) => set('antiSnipeSeconds', v)}
            min={0}
            max={ANTI_SNIPE_MAX_SECONDS}
            {...seconds}
            error={errorOf('biddingConfig.antiSnipeSeconds')}
          />
        )}
        <NumberInput
          label={t('livehub.edit.timerDefault')}
          value={values.timerSecondsDefault}
          onChange={(v) => set('timerSecondsDefault', v)}
          min={TIMER_MIN_SECONDS}
          max={TIMER_MAX_SECONDS}
          {...seconds}
          step={TIMER_STEP_SECONDS}
          error={errorOf('biddingConfig.timerSecondsDefault')}
        />
      </SimpleGrid>

      <Input.Wrapper label={t('livehub.formats.incrementKind')}>
        <SegmentedControl
          fullWidth
          mt={4}
          aria-label={t('livehub.formats.incrementKind')}
          value={values.incrementKind}
          onChange={(v) => set('incrementKind', v as EditSessionValues['incrementKind'])}
          data={[
            { value: 'flat', label: t('livehub.formats.flat') },
            { value: 'bands', label: t('livehub.formats.bands') },
          ]}
          data-testid="increment-kind"
        />
      </Input.Wrapper>
      {values.incrementKind === 'flat' ? (
        <AmountInput
          label={t('livehub.edit.minIncrement')}
          value={values.minIncrement}
          onChange={(v) => set('minIncrement', v)}
          min={1}
          max={MIN_INCREMENT_MAX}
          error={errorOf('biddingConfig.minIncrement')}
        />
      ) : (
        <BandTable rows={values.bands} onRows={(rows) => set('bands', rows)} errorOf={errorOf} />
      )}

      <Switch
        label={t('livehub.formats.autoAdvance')}
        description={t('livehub.formats.autoAdvanceHint')}
        checked={values.isAutoAdvance}
        onChange={(e) => set('isAutoAdvance', e.currentTarget.checked)}
        data-testid="auto-advance"
      />
      {values.isAutoAdvance && (
        <NumberInput
          label={t('livehub.formats.autoAdvanceSeconds')}
          value={values.autoAdvanceSeconds}
          onChange={(v) => set('autoAdvanceSeconds', v)}
          min={AUTO_ADVANCE_RANGE.min}
          max={AUTO_ADVANCE_RANGE.max}
          {...seconds}
          error={errorOf('biddingConfig.autoAdvanceSeconds')}
          maw={260}
        />
      )}
    </Stack>
  );
}

/** The band table: the first row starts at $0 (fixed); rows are added, removed or replaced by the suggested table. */
function BandTable({
  rows,
  onRows,
  errorOf,
}: {
  rows: BandRowValues[];
  onRows: (rows: BandRowValues[]) => void;
  errorOf: (field: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const change = (i: number, field: keyof BandRowValues, value: string | number) => onRows(rows.map((row, j) => (j === i ? { ...row, [field]: value } : row)));
  const tableError = errorOf(BANDS_FIELD);
  return (
    <Stack gap="xs" data-testid="band-table">
      <Text size="sm" c="dimmed">
        {t('livehub.formats.bandsHint')}
      </Text>
      <Table verticalSpacing={4} horizontalSpacing="xs" withRowBorders={false}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('livehub.formats.bandFrom')}</Table.Th>
            <Table.Th>{t('livehub.formats.bandIncrement')}</Table.Th>
            <Table.Th w={40}>
              <VisuallyHidden>{t('livehub.formats.bandActions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, i) => (
            // Rows have no identity but their place: a removed row shifts the ones below it, as the seller sees.
            // biome-ignore lint/suspicious/noArrayIndexKey: the row's place is its identity
            <Table.Tr key={i} data-testid="band-row">
              <Table.Td valign="top">
                <AmountInput
                  aria-label={t('livehub.formats.bandFromLabel', { row: i + 1 })}
                  value={i === 0 ? 0 : row.from}
                  onChange={(v) => change(i, 'from', v)}
                  disabled={i === 0}
                  asTyped
                  error={errorOf(bandField(i, 'from'))}
                  data-testid="band-from"
                />
              </Table.Td>
              <Table.Td valign="top">
                <AmountInput
                  aria-label={t('livehub.formats.bandIncrementLabel', { row: i + 1 })}
                  value={row.increment}
                  onChange={(v) => change(i, 'increment', v)}
                  asTyped
                  error={errorOf(bandField(i, 'increment'))}
                  data-testid="band-increment"
                />
              </Table.Td>
              <Table.Td valign="top">
                {i > 0 && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={4}
                    aria-label={t('livehub.formats.removeBand', { row: i + 1 })}
                    onClick={() => onRows(rows.filter((_, j) => j !== i))}
                  >
                    <TrashIcon size={16} />
                  </ActionIcon>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {tableError && (
        <Alert color="red" variant="light" role="alert" py={6}>
          {tableError}
        </Alert>
      )}
      <Group gap="xs">
        <Button
          size="xs"
          variant="light"
          disabled={rows.length >= INCREMENT_BANDS_MAX}
          onClick={() => onRows([...rows, { from: '', increment: '' }])}
          data-testid="add-band"
        >
          {t('livehub.formats.addBand')}
        </Button>
        <Button size="xs" variant="subtle" onClick={() => onRows(suggestedBandRows())} data-testid="suggested-bands">
          {t('livehub.formats.useSuggested')}
        </Button>
      </Group>
    </Stack>
  );
}
