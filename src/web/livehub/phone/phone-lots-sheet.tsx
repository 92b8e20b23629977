import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { formatMoney } from '../../../domain/money.js';
import type { LiveSessionData } from '../../api/live';
import { isSessionEndedError, useLotActions } from '../../api/live-hub';
import { NativeDialog } from '../../components/native-dialog';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { type LotRow, lotSections } from '../lot-rows';
import classes from './phone-hub.module.css';

/**
 * The session's lots in a bottom sheet: 'Próximos' (any of them can go on the block now) and
 * 'Pasados / Finalizados', each with its status and price. Removing and reordering stay on the
 * desktop Hub, whose confirmations are windows of their own.
 */
export function PhoneLotsSheet({ detail, onClose, onAskReopen }: { detail: LiveSessionData; onClose: () => void; onAskReopen: () => Promise<boolean> }) {
  const { t } = useTranslation();
  const { setCurrent } = useLotActions(detail.session.id);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { upcoming, past } = lotSections(detail.lots, detail.session);

  const makeCurrent = async (row: LotRow, confirmed = false) => {
    let isReopen = confirmed;
    if (!isReopen && detail.session.status === 'ended') {
      if (!(await onAskReopen())) return;
      isReopen = true;
    }
    setRefusal(null);
    setCurrent.mutate(
      { lotId: row.lot.id, reopen: isReopen },
      {
        onError: async (error) => {
          if (!isReopen && isSessionEndedError(error)) {
            if (await onAskReopen()) void makeCurrent(row, true);
            return;
          }
          setRefusal(apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('livehub.lots.setCurrentFailed') }));
        },
      },
    );
  };

  const rows = (list: LotRow[], offerCurrent: boolean) => (
    <ol className={classes.sheetList}>
      {list.map((row) => {
        const name = row.lot.auction.name || t('livehub.picker.unnamed');
        const isSold = row.status === 'sold';
        return (
          <li key={row.lot.id} className={classes.sheetRow} aria-label={name} data-current={row.isCurrent || undefined} data-lot-id={row.lot.id}>
            <Group gap="xs" wrap="nowrap" justify="space-between">
              <Stack gap={2} miw={0}>
                <Group gap={6} wrap="wrap">
                  <Text size="xs" c="dimmed">
                    {t('livehub.lots.order', { order: row.lot.order })}
                  </Text>
                  <Badge size="sm" variant="light" color={row.isCurrent ? 'red' : isSold ? 'teal' : 'gray'} tt="none" data-status={row.status}>
                    {row.isCurrent ? t('livehub.lots.currentButton') : t(`livehub.lots.rowStatus.${row.status}`)}
                  </Badge>
                </Group>
                <Text fw={600} size="sm" lineClamp={1}>
                  {name}
                </Text>
                <Text size="xs">
                  {isSold ? t('livehub.lots.live.soldFor') : row.hasBid ? t('livehub.lots.currentPrice') : t('livehub.lots.startingPrice')}{' '}
                  <Text span fw={700} size="xs">
                    {formatMoney(row.price)}
                  </Text>
                </Text>
              </Stack>
              {offerCurrent && detail.canEdit && !row.isCurrent && (
                <Button
                  variant="light"
                  className={classes.touch}
                  style={{ flex: 'none' }}
                  onClick={() => void makeCurrent(row)}
                  disabled={setCurrent.isPending}
                  aria-label={t('livehub.lots.setCurrentLabel', { name })}
                >
                  {t('livehub.lots.setCurrent')}
                </Button>
              )}
            </Group>
          </li>
        );
      })}
    </ol>
  );

  return (
    <NativeDialog title={t('livehub.phone.lotsTitle')} size="sheet" closable onClose={onClose}>
      <Stack gap="md" data-testid="phone-lots-sheet">
        {refusal && (
          <Text size="sm" c="red.8" role="alert">
            {refusal}
          </Text>
        )}
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
    </NativeDialog>
  );
}
