import { Alert, Button, Group, NumberInput, Popover, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import {
  COUNTER_BID_MAX_SECONDS,
  COUNTER_BID_MIN_SECONDS,
  DEFAULT_COUNTER_BID_SECONDS,
  type LotView,
  TIMER_MODES,
  type TimerMode,
  ZLotUpdate,
} from '../../domain/live.js';
import { ApiError } from '../api/client';
import { useLotActions } from '../api/live-hub';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { timerFormatOf } from '../lib/timer-format';
import { useFieldError } from './session-fields';
import { type FieldErrors, issuesToErrors, toNumber } from './session-form';

type Choice = TimerMode | 'session';

/** The format a lot runs under now, short, for the row's button ('Contrapuja 10/5 s'). */
export function useFormatText() {
  const { t } = useTranslation();
  return (lot: LotView) => {
    const format = timerFormatOf(lot.auction.state);
    if (format.mode === 'counterBid') return t('livehub.formats.badgeCounterBid', { window: format.window, reset: format.reset });
    if (format.mode === 'extend') return t('livehub.formats.badgeExtend', { seconds: format.window });
    return t('livehub.formats.badgeSuddenDeath');
  };
}

/**
 * A lot's own timer format: follow the session's, or Contrapuja (with W and R), Muerte súbita or
 * Extender for this lot alone. Each opening starts from what the lot has now (a room event may have
 * changed it); what the seller typed stays in the fields until it is saved or the form closes.
 * `onSaved` runs once the server took it. The desktop shows it in a popover on the lot's row
 * (LotFormatMenu), the phone in a sheet of its own.
 */
export function LotFormatForm({ lot, onSaved, touch = false }: { lot: LotView; onSaved: () => void; touch?: boolean }) {
  const { t } = useTranslation();
  const { format } = useLotActions(lot.sessionId);
  const override = lot.timerOverride;
  const state = lot.auction.state;
  const [choice, setChoice] = useState<Choice>(() => (override.timerMode ?? 'session') as Choice);
  const [windowSeconds, setWindowSeconds] = useState<string | number>(
    () => override.counterBidWindowSeconds ?? (state.timerMode === 'counterBid' ? state.antiSnipeSeconds : DEFAULT_COUNTER_BID_SECONDS),
  );
  const [reset, setReset] = useState<string | number>(
    () => override.counterBidResetSeconds ?? (state.timerMode === 'counterBid' ? state.counterBidResetSeconds : DEFAULT_COUNTER_BID_SECONDS),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const fieldError = useFieldError(errors);
  const serverFields = format.error instanceof ApiError ? format.error.fields : {};
  const errorOf = (field: string) => fieldError(field) ?? serverFields[field];

  const save = () => {
    const isCounter = choice === 'counterBid';
    const body = {
      timerMode: choice === 'session' ? null : choice,
      counterBidWindowSeconds: isCounter ? toNumber(windowSeconds) : null,
      counterBidResetSeconds: isCounter ? toNumber(reset) : null,
    };
    const parsed = ZLotUpdate.safeParse(body);
    if (!parsed.success) {
      setErrors(issuesToErrors(parsed.error));
      return;
    }
    format.mutate({ lotId: lot.id, input: parsed.data }, { onSuccess: onSaved });
  };

  const otherError = format.isError && Object.keys(serverFields).length === 0;
  const size = touch ? 'md' : 'xs';
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <Stack gap={touch ? 'sm' : 'xs'}>
        <Radio.Group
          label={t('livehub.formats.lotMenuTitle')}
          value={choice}
          onChange={(v) => {
            setChoice(v as Choice);
            setErrors({});
          }}
          error={errorOf('timerMode')}
        >
          <Stack gap={touch ? 'md' : 6} mt={6}>
            <Radio value="session" label={t('livehub.formats.followSession')} size={touch ? 'md' : 'sm'} />
            {TIMER_MODES.map((mode) => (
              <Radio key={mode} value={mode} label={t(`livehub.formats.${mode}`)} size={touch ? 'md' : 'sm'} />
            ))}
          </Stack>
        </Radio.Group>
        {choice === 'counterBid' && (
          <Group gap="xs" grow align="flex-start">
            <NumberInput
              size={size}
              label={t('livehub.formats.window')}
              value={windowSeconds}
              onChange={(v) => {
                setWindowSeconds(v);
                setErrors((e) => ({ ...e, counterBidWindowSeconds: undefined }));
              }}
              min={COUNTER_BID_MIN_SECONDS}
              max={COUNTER_BID_MAX_SECONDS}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              error={errorOf('counterBidWindowSeconds')}
              data-testid="lot-format-window"
            />
            <NumberInput
              size={size}
              label={t('livehub.formats.reset')}
              value={reset}
              onChange={(v) => {
                setReset(v);
                setErrors((e) => ({ ...e, counterBidResetSeconds: undefined }));
              }}
              min={COUNTER_BID_MIN_SECONDS}
              max={COUNTER_BID_MAX_SECONDS}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              error={errorOf('counterBidResetSeconds')}
              data-testid="lot-format-reset"
            />
          </Group>
        )}
        {otherError && (
          <Alert color="red" variant="light" role="alert" py={6}>
            <Text size="sm">{apiErrorText(format.error, { networkMessage: t('common.networkError'), fallback: t('livehub.formats.lotFailed') })}</Text>
          </Alert>
        )}
        <Button type="submit" size={touch ? 'md' : 'xs'} mih={touch ? 44 : undefined} loading={format.isPending} data-testid="lot-format-save">
          {t('livehub.formats.lotSave')}
        </Button>
      </Stack>
    </form>
  );
}

/** The format on the lot's row in the desktop Hub: a button saying it ('Contrapuja 10/5 s') that opens the form. */
export function LotFormatMenu({ lot, name, disabled }: { lot: LotView; name: string; disabled?: boolean }) {
  const { t } = useTranslation();
  const formatText = useFormatText();
  const [opened, setOpened] = useState(false);
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" withArrow trapFocus shadow="md" width={280}>
      <Popover.Target>
        <Button
          size="compact-xs"
          variant={lot.timerOverride.timerMode ? 'light' : 'subtle'}
          color={lot.timerOverride.timerMode ? 'oro' : 'gray'}
          onClick={() => setOpened((o) => !o)}
          disabled={disabled}
          aria-label={t('livehub.formats.lotMenuButton', { format: formatText(lot), name })}
          aria-haspopup="dialog"
          aria-expanded={opened}
          data-testid="lot-format"
          data-mode={lot.auction.state.timerMode}
        >
          {formatText(lot)}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        {/* Mounted while open only, so each opening starts from the lot as it is now. */}
        {opened && (
          <LotFormatForm
            lot={lot}
            onSaved={() => {
              setOpened(false);
              notifications.show({ color: 'green', message: t('livehub.formats.lotSaved') });
            }}
          />
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
