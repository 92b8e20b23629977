import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { formatMoney, MAX_PRICE } from '../../../domain/money.js';
import type { MyPrebid } from '../../../domain/prebids.js';
import { startSignIn } from '../../api/auth';
import { isApiError, NETWORK_ERROR_STATUS } from '../../api/client';
import { usePrebidActions } from '../../api/prebids';
import { AmountInput } from '../../components/amount-input';
import { addPageStrings, useTranslation } from '../../i18n';
import prebidStrings from '../../i18n/es-MX.json?section=prebids';

// The form's strings travel with it (i18n/parts.ts): only a lot waiting to open loads either.
addPageStrings(prebidStrings);

export interface PrebidBoxProps {
  auctionId: string;
  auctionName: string;
  /** The least maximum taken: the starting price. */
  minimum: number;
  /** The buyer's own pre-bid still waiting for the lot; null without one. */
  mine: MyPrebid | null;
  signedIn: boolean;
}

type Step = { kind: 'idle' } | { kind: 'edit'; text: string; problem: string | null } | { kind: 'review'; amount: number };

/** Whole pesos typed with or without separators ('1,500', '$1500'); undefined when it is not one. */
function parsePesos(text: string): number | undefined {
  const clean = text.replace(/[\s$,]/g, '');
  if (!/^\d+$/.test(clean)) return undefined;
  const value = Number(clean);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * 'Puja anticipada' on one lot: the buyer types a maximum, reviews it (it binds once the show
 * starts), and sends it; then sees it with 'Subir' and, until the show starts, 'Retirar'. The
 * server decides everything; its Spanish refusal is shown as it comes.
 */
export function PrebidBox({ auctionId, auctionName, minimum, mine, signedIn }: PrebidBoxProps) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const { place, withdraw } = usePrebidActions(auctionId);
  const failure = place.error ?? withdraw.error;
  const failureText = !failure
    ? null
    : !isApiError(failure)
      ? t('common.genericError')
      : failure.status === NETWORK_ERROR_STATUS
        ? t('common.networkError')
        : (failure.fields.maxAmount ?? failure.message);
  const busy = place.isPending || withdraw.isPending;

  if (!signedIn) {
    return (
      <Button size="compact-sm" variant="light" onClick={startSignIn} data-testid="prebid-sign-in" aria-label={`${t('prebids.signIn')}: ${auctionName}`}>
        {t('prebids.open')}
      </Button>
    );
  }

  function review(text: string) {
    const amount = parsePesos(text);
    const floor = mine ? mine.maxAmount + 1 : minimum;
    let problem: string | null = null;
    if (amount === undefined || amount > MAX_PRICE) problem = t('prebids.invalid');
    else if (mine && amount <= mine.maxAmount) problem = t('prebids.mustRaise', { amount: formatMoney(mine.maxAmount) });
    else if (amount < floor) problem = t('prebids.tooLow', { amount: formatMoney(minimum) });
    if (problem || amount === undefined) setStep({ kind: 'edit', text, problem });
    else setStep({ kind: 'review', amount });
  }

  function send(amount: number) {
    withdraw.reset();
    place.mutate(amount, { onSuccess: () => setStep({ kind: 'idle' }) });
  }

  return (
    <Stack gap={6} data-testid="prebid-box" data-auction-id={auctionId}>
      {mine && step.kind === 'idle' && (
        <Stack gap={4}>
          <Group gap="xs" wrap="wrap">
            <Text size="sm" fw={700} data-testid="prebid-mine">
              {t('prebids.mine', { amount: formatMoney(mine.maxAmount) })}
            </Text>
            <Button size="compact-sm" variant="light" onClick={() => setStep({ kind: 'edit', text: '', problem: null })} disabled={busy}>
              {t('prebids.raise')}
            </Button>
            {!mine.binding && (
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                onClick={() => {
                  place.reset();
                  withdraw.mutate();
                }}
                loading={withdraw.isPending}
                disabled={busy}
              >
                {t('prebids.withdraw')}
              </Button>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {mine.binding ? t('prebids.bindingHint') : t('prebids.withdrawHint')}
          </Text>
        </Stack>
      )}
      {!mine && step.kind === 'idle' && (
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => setStep({ kind: 'edit', text: '', problem: null })}
          data-testid="prebid-open"
          aria-label={`${t('prebids.open')}: ${auctionName}`}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('prebids.open')}
        </Button>
      )}
      {step.kind === 'edit' && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            review(step.text);
          }}
        >
          <Stack gap={6}>
            <Text size="xs" c="dimmed">
              {t('prebids.hint')}
            </Text>
            <AmountInput
              label={t('prebids.maxLabel')}
              description={t('prebids.minimum', { amount: formatMoney(mine ? mine.maxAmount + 1 : minimum) })}
              asTyped
              value={step.text}
              error={step.problem}
              onChange={(value) => setStep({ kind: 'edit', text: String(value), problem: null })}
              data-testid="prebid-amount"
              autoFocus
            />
            <Group gap="xs">
              <Button type="submit" size="compact-sm">
                {t('prebids.review')}
              </Button>
              <Button size="compact-sm" variant="subtle" color="gray" onClick={() => setStep({ kind: 'idle' })}>
                {t('prebids.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {step.kind === 'review' && (
        <Stack gap={6} data-testid="prebid-review">
          <Text size="sm" fw={700}>
            {t('prebids.reviewAmount', { amount: formatMoney(step.amount) })}
          </Text>
          <Text size="sm" c="orange.8" fw={600}>
            {t('prebids.commitment')}
          </Text>
          <Group gap="xs">
            <Button size="compact-sm" onClick={() => send(step.amount)} loading={place.isPending} data-testid="prebid-confirm">
              {t('prebids.confirm')}
            </Button>
            <Button
              size="compact-sm"
              variant="subtle"
              color="gray"
              onClick={() => setStep({ kind: 'edit', text: String(step.amount), problem: null })}
              disabled={busy}
            >
              {t('prebids.cancel')}
            </Button>
          </Group>
        </Stack>
      )}
      {failureText && (
        <Alert color="red" variant="light" p="xs" role="alert" data-testid="prebid-error">
          {failureText}
        </Alert>
      )}
    </Stack>
  );
}

/** 'Puja anticipada' on the auction's page, beside the bid panel: a title, a hint, and the box. */
export function PrebidCard(props: PrebidBoxProps) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={headingId} data-testid="auction-prebid">
      <Stack gap="xs">
        <Title order={2} size="h5" id={headingId}>
          {t('prebids.title')}
        </Title>
        {!props.mine && (
          <Text size="sm" c="dimmed">
            {t('prebids.hint')}
          </Text>
        )}
        <PrebidBox {...props} />
      </Stack>
    </Card>
  );
}
