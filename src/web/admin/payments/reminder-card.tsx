import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { formatMoney } from '../../../domain/money.js';
import type { ReminderView } from '../../../domain/reminders.js';
import { useTranslation } from '../../i18n';
import { formatDate } from '../../lib/dates';
import { BADGE_STYLE, SHORT_DATE_TIME, WhatsappCell } from './payment-cells';
import { REMINDER_KIND_COLORS, REMINDER_KIND_KEYS, sendTrouble } from './reminder-display';

interface ReminderCardProps {
  reminder: ReminderView;
  isBusy: boolean;
  onMarkSent: (reminder: ReminderView) => void;
}

/** One reminder: the buyer, which reminder, the bill, and the two ways to close it (send by WhatsApp, or mark sent). */
export function ReminderCard({ reminder: r, isBusy, onMarkSent }: ReminderCardProps) {
  const { t } = useTranslation();
  const trouble = r.channel === 'cloud' ? sendTrouble(r) : null;
  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Stack gap={2}>
            <Text size="sm" fw={600}>
              {r.winnerName}
            </Text>
            <WhatsappCell whatsapp={r.winnerWhatsapp} />
          </Stack>
          <Badge variant="light" color={REMINDER_KIND_COLORS[r.kind]} style={BADGE_STYLE}>
            {t(REMINDER_KIND_KEYS[r.kind])}
          </Badge>
        </Group>
        {r.lots.length > 0 && (
          <Text size="xs" c="dimmed" lineClamp={2}>
            {t('reminders.lots', { lots: r.lots.join(', ') })}
          </Text>
        )}
        <Group gap="md" wrap="wrap">
          <Text size="sm">{t('reminders.total', { total: formatMoney(r.grandTotal) })}</Text>
          {r.deadlineAt !== null && (
            <Text size="sm" c="dimmed">
              {t('reminders.deadline', { date: formatDate(r.deadlineAt, SHORT_DATE_TIME) })}
            </Text>
          )}
        </Group>
        {trouble && (
          <Stack gap={2}>
            <Text size="xs" c="red" fw={600}>
              {trouble.kind === 'gaveUp'
                ? t('reminders.failedGaveUp', { attempts: trouble.attempts })
                : t('reminders.failedRetrying', { attempts: trouble.attempts, time: formatDate(trouble.nextAt, 'HH:mm') })}
            </Text>
            {r.lastError && (
              <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
                {t('reminders.lastError', { error: r.lastError })}
              </Text>
            )}
          </Stack>
        )}
        {(r.whatsappHref || r.status === 'due' || r.status === 'failed') && (
          <Group gap="xs" wrap="wrap">
            {r.whatsappHref ? (
              <Button
                component="a"
                href={r.whatsappHref}
                target="_blank"
                rel="noopener noreferrer"
                size="xs"
                color="green"
                // The chat opens in its tab; the reminder counts as sent.
                onClick={() => onMarkSent(r)}
              >
                {t('reminders.send')}
              </Button>
            ) : (
              <Text size="xs" c="dimmed">
                {t('reminders.noWhatsapp')}
              </Text>
            )}
            <Button size="xs" variant="light" loading={isBusy} onClick={() => onMarkSent(r)}>
              {t('reminders.markSent')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
