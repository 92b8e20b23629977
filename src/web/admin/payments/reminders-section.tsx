import { Alert, Button, Divider, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { ReminderView } from '../../../domain/reminders.js';
import { useDueReminders, useMarkReminderSent } from '../../api/reminders';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { ReminderCard } from './reminder-card';

/**
 * 'Recordatorios pendientes': the payment reminders due now, each with its wa.me button (the
 * embedded default), and the WhatsApp Cloud API's sends that failed, with their error and attempts.
 */
export function RemindersSection({ isMobile }: { isMobile: boolean }) {
  const { t } = useTranslation();
  const reminders = useDueReminders();
  const mark = useMarkReminderSent();
  const [busyId, setBusyId] = useState<string | null>(null);

  const markSent = async (r: ReminderView) => {
    if (busyId === r.id) return;
    setBusyId(r.id);
    try {
      await mark.mutateAsync(r.id);
      notifications.show({ color: 'green', message: t('reminders.marked') });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('reminders.markFailed'),
        message: apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('reminders.markFailed') }),
      });
    } finally {
      setBusyId(null);
    }
  };

  const grid = (items: ReminderView[]) => (
    <SimpleGrid cols={isMobile ? 1 : { base: 1, md: 2, xl: 3 }} spacing="sm">
      {items.map((r) => (
        <ReminderCard key={r.id} reminder={r} isBusy={busyId === r.id} onMarkSent={(x) => void markSent(x)} />
      ))}
    </SimpleGrid>
  );

  return (
    <Stack gap="sm" component="section" aria-label={t('reminders.title')}>
      <Title order={3}>{t('reminders.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('reminders.intro')}
      </Text>
      {reminders.isPending ? (
        <Spinner size="sm" label={t('reminders.loading')} />
      ) : reminders.isError ? (
        <Alert color="red">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{apiErrorText(reminders.error, { networkMessage: t('common.networkError'), fallback: t('reminders.loadFailed') })}</Text>
            <Button size="xs" variant="light" onClick={() => void reminders.refetch()}>
              {t('reminders.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <>
          {reminders.data.items.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('reminders.empty')}
            </Text>
          ) : (
            grid(reminders.data.items)
          )}
          {reminders.data.failed.length > 0 && (
            <Stack gap="xs">
              <Title order={4}>{t('reminders.failedTitle')}</Title>
              <Text size="sm" c="dimmed">
                {t('reminders.failedIntro')}
              </Text>
              {grid(reminders.data.failed)}
            </Stack>
          )}
        </>
      )}
      <Divider mt="sm" />
    </Stack>
  );
}
