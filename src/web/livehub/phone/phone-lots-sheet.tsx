import { ActionIcon, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { lotRemovalBlock } from '../../../domain/live.js';
import { formatMoney } from '../../../domain/money.js';
import type { LiveSessionData } from '../../api/live';
import { useLotActions } from '../../api/live-hub';
import { ArrowDownIcon, ArrowUpIcon, TrashIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { clockOffset } from '../../lib/countdown';
import { LotFormatForm, useFormatText } from '../lot-format-menu';
import { applyOrder, type LotRow, lotSections, moveInSection, orderedLotIds, reorderSection } from '../lot-rows';
import { makeCurrentAsking } from '../make-current';
import classes from './phone-hub.module.css';
import { PhoneQuestion, PhoneSheet } from './phone-sheet';

interface PhoneLotsSheetProps {
  detail: LiveSessionData;
  onClose: () => void;
  /** The reopen question (a window of the Hub's stack: the sheet closes before it asks). */
  onAskReopen: () => Promise<boolean>;
}

/**
 * The session's lots in a bottom sheet, with what the desktop's lots list does, thumb-sized:
 * 'Próximos' (any can go on the block now, and move up or down the queue) and 'Pasados /
 * Finalizados' (an unsold lot can be auctioned again), each lot's own timer format, and removing a
 * lot after the SPEC's question. The desktop's calls and list rules (lot-rows.ts) do the work; what
 * happened is said inside the sheet, where the seller is looking.
 */
export function PhoneLotsSheet({ detail, onClose, onAskReopen }: PhoneLotsSheetProps) {
  const { t } = useTranslation();
  const formatText = useFormatText();
  const { setCurrent, reorder, remove, requeue } = useLotActions(detail.session.id);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [pendingOrder, setPendingOrder] = useState<string[] | null>(null);
  const [toRemove, setToRemove] = useState<LotRow | null>(null);
  const [formatId, setFormatId] = useState<string | null>(null);
  const lots = useMemo(() => (pendingOrder ? applyOrder(detail.lots, pendingOrder) : detail.lots), [detail.lots, pendingOrder]);
  const { upcoming, past } = lotSections(lots, detail.session);
  const upcomingIds = upcoming.map((r) => r.lot.id);
  const now = Date.now() + clockOffset(detail.serverNow, detail.receivedAt);
  const busy = reorder.isPending || remove.isPending || setCurrent.isPending || requeue.isPending;
  const nameOf = (row: LotRow) => row.lot.auction.name || t('livehub.picker.unnamed');
  const errorText = (error: unknown, fallback: string) => apiErrorText(error, { networkMessage: t('common.networkError'), fallback });
  const say = (text: string) => {
    setRefusal(null);
    setAnnouncement(text);
  };
  const refuse = (text: string) => {
    setAnnouncement('');
    setRefusal(text);
  };

  const makeCurrent = makeCurrentAsking({
    status: detail.session.status,
    setCurrent,
    askReopen: onAskReopen,
    onSend: () => setRefusal(null),
    onFailed: (error) => refuse(errorText(error, t('livehub.lots.setCurrentFailed'))),
  });

  // The same order call as the desktop's arrows, shown at once and put back if the server refuses.
  const move = (row: LotRow, by: -1 | 1) => {
    const section = moveInSection(upcomingIds, row.lot.id, by);
    const order = section && reorderSection(orderedLotIds(lots), upcomingIds, section);
    if (!section || !order) return;
    setPendingOrder(order);
    say(t('livehub.lots.moved', { name: nameOf(row), position: section.indexOf(row.lot.id) + 1 }));
    reorder.mutate(order, {
      onError: (error) => refuse(errorText(error, t('livehub.lots.reorderFailed'))),
      onSettled: () => setPendingOrder(null),
    });
  };

  const rerun = (row: LotRow) =>
    requeue.mutate(row.lot.id, {
      onSuccess: () => say(t('livehub.flow.requeued', { name: nameOf(row) })),
      onError: (error) => refuse(errorText(error, t('livehub.flow.requeueFailed'))),
    });

  const removeNow = () => {
    const row = toRemove;
    if (!row) return;
    remove.mutate(row.lot.id, {
      onSuccess: () => {
        setToRemove(null);
        say(t('livehub.phone.removed', { name: nameOf(row) }));
      },
      onError: (error) => {
        setToRemove(null);
        refuse(errorText(error, t('livehub.lots.removeFailed')));
      },
    });
  };

  const rows = (list: LotRow[], isUpcoming: boolean) => (
    <ol className={classes.sheetList}>
      {list.map((row, index) => {
        const name = nameOf(row);
        const state = row.lot.auction.state;
        const isSold = row.status === 'sold';
        // A sold lot cannot run again; an unsold one can ('Volver a subastar', or straight on the block).
        const offerCurrent = !row.isCurrent && !(state.status === 'ended' && state.bidCount > 0);
        const canFormat = state.status !== 'ended' && row.lot.status !== 'finished';
        const canRemove = lotRemovalBlock(state, now) === null;
        return (
          <li key={row.lot.id} className={classes.sheetRow} aria-label={name} data-current={row.isCurrent || undefined} data-lot-id={row.lot.id}>
            <Group gap="xs" wrap="nowrap" justify="space-between" align="flex-start">
              <Stack gap={2} miw={0}>
                <Group gap={6} wrap="wrap">
                  <Text size="xs" c="dimmed">
                    {t('livehub.lots.order', { order: row.lot.order })}
                  </Text>
                  <Badge size="sm" variant="light" color={row.isCurrent ? 'red' : isSold ? 'teal' : 'gray'} tt="none" data-status={row.status}>
                    {row.isCurrent ? t('livehub.lots.currentButton') : t(`livehub.lots.rowStatus.${row.status}`)}
                  </Badge>
                </Group>
                <Text fw={600} size="sm" lineClamp={2}>
                  {name}
                </Text>
                <Text size="xs">
                  {isSold ? t('livehub.lots.live.soldFor') : row.hasBid ? t('livehub.lots.currentPrice') : t('livehub.lots.startingPrice')}{' '}
                  <Text span fw={700} size="xs">
                    {formatMoney(row.price)}
                  </Text>
                </Text>
              </Stack>
              {detail.canEdit && offerCurrent && (
                <Button
                  variant="light"
                  className={classes.touch}
                  style={{ flex: 'none' }}
                  onClick={() => void makeCurrent(row)}
                  disabled={busy}
                  aria-label={t('livehub.lots.setCurrentLabel', { name })}
                >
                  {t('livehub.lots.setCurrent')}
                </Button>
              )}
            </Group>
            {detail.canEdit && (
              <div className={classes.rowActions}>
                {canFormat && (
                  <Button
                    variant={row.lot.timerOverride.timerMode ? 'light' : 'default'}
                    color={row.lot.timerOverride.timerMode ? 'oro' : 'gray'}
                    className={classes.touch}
                    onClick={() => setFormatId(row.lot.id)}
                    disabled={busy}
                    aria-label={t('livehub.formats.lotMenuButton', { format: formatText(row.lot), name })}
                    aria-haspopup="dialog"
                    data-testid="phone-lot-format"
                    data-mode={state.timerMode}
                  >
                    {formatText(row.lot)}
                  </Button>
                )}
                {row.status === 'unsold' && (
                  <Button
                    variant="light"
                    color="orange"
                    className={classes.touch}
                    onClick={() => rerun(row)}
                    disabled={busy}
                    aria-label={t('livehub.flow.requeueLabel', { name })}
                  >
                    {t('livehub.flow.requeue')}
                  </Button>
                )}
                <span className={classes.grow} />
                {isUpcoming && (
                  <>
                    <ActionIcon
                      variant="default"
                      className={classes.square}
                      aria-label={t('livehub.lots.moveUp', { name })}
                      onClick={() => move(row, -1)}
                      disabled={busy || index === 0}
                    >
                      <ArrowUpIcon size={18} />
                    </ActionIcon>
                    <ActionIcon
                      variant="default"
                      className={classes.square}
                      aria-label={t('livehub.lots.moveDown', { name })}
                      onClick={() => move(row, 1)}
                      disabled={busy || index === list.length - 1}
                    >
                      <ArrowDownIcon size={18} />
                    </ActionIcon>
                  </>
                )}
                {canRemove && (
                  <ActionIcon
                    variant="light"
                    color="red"
                    className={classes.square}
                    aria-label={t('livehub.lots.removeLabel', { name })}
                    aria-haspopup="dialog"
                    onClick={() => setToRemove(row)}
                    disabled={busy}
                  >
                    <TrashIcon size={18} />
                  </ActionIcon>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );

  const formatLot = formatId ? detail.lots.find((l) => l.id === formatId) : undefined;
  return (
    <PhoneSheet detail={detail} title={t('livehub.phone.lotsTitle')} onClose={onClose} testId="phone-lots-sheet">
      <Stack gap="md">
        {refusal && (
          <Text size="sm" c="red.8" role="alert">
            {refusal}
          </Text>
        )}
        <Text size="sm" c="teal.9" role="status" data-testid="phone-lots-status" hidden={!announcement}>
          {announcement}
        </Text>
        {detail.lots.length === 0 ? (
          <Text size="sm" role="status">
            {t('livehub.lots.empty')}
          </Text>
        ) : (
          <>
            <Stack gap="xs" component="section" aria-label={t('livehub.lots.upcoming')}>
              <Title order={3} size="h6">
                {t('livehub.lots.upcoming')}
              </Title>
              {upcoming.length === 0 ? <Text size="sm">{t('livehub.lots.noneUpcoming')}</Text> : rows(upcoming, true)}
            </Stack>
            <Stack gap="xs" component="section" aria-label={t('livehub.lots.past')}>
              <Title order={3} size="h6">
                {t('livehub.lots.past')}
              </Title>
              {past.length === 0 ? <Text size="sm">{t('livehub.lots.nonePast')}</Text> : rows(past, false)}
            </Stack>
          </>
        )}
      </Stack>
      {formatLot && (
        <PhoneSheet
          detail={detail}
          title={t('livehub.formats.lotMenu', { name: formatLot.auction.name || t('livehub.picker.unnamed') })}
          onClose={() => setFormatId(null)}
          testId="phone-format-sheet"
        >
          <LotFormatForm
            lot={formatLot}
            touch
            onSaved={() => {
              setFormatId(null);
              say(t('livehub.formats.lotSaved'));
            }}
          />
        </PhoneSheet>
      )}
      {toRemove && (
        <PhoneQuestion
          title={t('livehub.lots.removeTitle')}
          cancelLabel={t('livehub.lots.cancel')}
          confirmLabel={t('livehub.lots.removeYes')}
          isPending={remove.isPending}
          onCancel={() => setToRemove(null)}
          onConfirm={removeNow}
          testId="phone-remove-question"
        >
          <Text size="sm">{t('livehub.lots.removeConfirm')}</Text>
          <Text size="sm" fw={600}>
            {nameOf(toRemove)}
          </Text>
        </PhoneQuestion>
      )}
    </PhoneSheet>
  );
}
