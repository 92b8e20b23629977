import { Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { formatMoney } from '../../../domain/money.js';
import type { ExpiredLotView } from '../../../domain/unpaid.js';
import type { LotChoice } from '../../api/unpaid';
import { useTranslation } from '../../i18n';

export interface ShowOption {
  value: string;
  label: string;
}

interface ExpiredLotProps {
  lot: ExpiredLotView;
  /** Scheduled shows of the bill's company, for "Llevar a otro show". */
  shows: ShowOption[];
  isBusy: boolean;
  onChoose: (choice: LotChoice) => void;
}

/**
 * One lot of an expired bill and the seller's choice for it: Segunda oportunidad (named runner-up
 * and their own bid), another show (a Select of scheduled shows) or release, each after a question
 * since none can be undone; once chosen, what was chosen and how the offer stands.
 */
export function ExpiredLot({ lot, shows, isBusy, onChoose }: ExpiredLotProps) {
  const { t } = useTranslation();
  const [sessionId, setSessionId] = useState<string | null>(null);

  const confirm = (title: string, body: string, choice: LotChoice) =>
    modals.openConfirmModal({
      title,
      centered: true,
      closeOnClickOutside: false,
      children: <Text size="sm">{body}</Text>,
      labels: { confirm: t('unpaid.panel.confirm.confirm'), cancel: t('unpaid.panel.confirm.cancel') },
      onConfirm: () => onChoose(choice),
    });

  const runnerUp = lot.runnerUp;
  const session = shows.find((s) => s.value === sessionId) ?? null;

  return (
    <Stack gap="xs" py="xs" data-testid={`expired-lot-${lot.auctionId}`}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {lot.auctionName}
        </Text>
        <Text size="sm" c="dimmed">
          {formatMoney(lot.amount)}
        </Text>
      </Group>

      {lot.offer && (
        <Group gap="xs" wrap="wrap">
          <Text size="sm">{t('unpaid.panel.chosen.secondChance', { name: lot.offer.buyerName, amount: formatMoney(lot.offer.amount) })}</Text>
          <Badge variant="light" color={lot.offer.status === 'paid' ? 'green' : lot.offer.status === 'offered' ? 'blue' : 'gray'} tt="none">
            {t(`unpaid.panel.offerStatus.${lot.offer.status}`)}
          </Badge>
        </Group>
      )}
      {lot.decision === 'futureShow' && (
        <Badge variant="light" tt="none">
          {t('unpaid.panel.chosen.futureShow')}
        </Badge>
      )}
      {lot.decision === 'released' && (
        <Badge variant="light" color="gray" tt="none">
          {t('unpaid.panel.chosen.released')}
        </Badge>
      )}

      {lot.open && (
        <Stack gap="xs">
          {runnerUp === null ? (
            <Text size="xs" c="dimmed">
              {t('unpaid.panel.noRunnerUp')}
            </Text>
          ) : runnerUp.blocked ? (
            <Text size="xs" c="dimmed">
              {t('unpaid.panel.runnerUpBlocked', { name: runnerUp.name })}
            </Text>
          ) : (
            <Button
              size="xs"
              variant="light"
              loading={isBusy}
              disabled={isBusy}
              onClick={() =>
                confirm(
                  t('unpaid.panel.confirm.secondChanceTitle', { name: runnerUp.name }),
                  t('unpaid.panel.confirm.secondChance', { amount: formatMoney(runnerUp.amount) }),
                  { kind: 'secondChance' },
                )
              }
            >
              {t('unpaid.panel.secondChanceTo', { name: runnerUp.name, amount: formatMoney(runnerUp.amount) })}
            </Button>
          )}
          <Group gap="xs" align="flex-end" wrap="wrap">
            <Select
              size="xs"
              label={t('unpaid.panel.sessionLabel')}
              placeholder={shows.length ? t('unpaid.panel.sessionPlaceholder') : t('unpaid.panel.noSessions')}
              data={shows}
              value={sessionId}
              onChange={setSessionId}
              disabled={shows.length === 0 || isBusy}
              comboboxProps={{ withinPortal: true }}
              style={{ flex: '1 1 12rem' }}
            />
            <Button
              size="xs"
              variant="default"
              disabled={!session || isBusy}
              onClick={() =>
                session &&
                confirm(t('unpaid.panel.confirm.futureShowTitle'), t('unpaid.panel.confirm.futureShow', { session: session.label }), {
                  kind: 'futureShow',
                  sessionId: session.value,
                })
              }
            >
              {t('unpaid.panel.futureShow')}
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="gray"
              disabled={isBusy}
              onClick={() => confirm(t('unpaid.panel.confirm.releaseTitle'), t('unpaid.panel.confirm.release'), { kind: 'release' })}
            >
              {t('unpaid.panel.release')}
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
