import { Anchor, Badge, Group, Spoiler, Stack, Text, Tooltip } from '@mantine/core';
import { formatMoney } from '../../../domain/money.js';
import type { PaymentStatus } from '../../../domain/payment-status.js';
import type { PaymentView, WonItem } from '../../../domain/payments.js';
import { formatWhatsapp } from '../../../domain/phone.js';
import { useTranslation } from '../../i18n';
import { formatDate } from '../../lib/dates';
import classes from './billing-list.module.css';
import { PAYMENT_STATUS_COLORS, providerStatusColor, shortId } from './payment-display';
import { whatsappChatHref } from './whatsapp-links';

/** A badge in a squeezed table column keeps its whole word. */
export const BADGE_STYLE = { minWidth: 'max-content' } as const;

/** Short dates for table cells: '22 nov 2026, 18:05', Mexico City time. */
export const SHORT_DATE_TIME = 'D MMM YYYY, HH:mm';

/** The winner's name, with the WhatsApp number (a chat link) and the company when asked for. */
export function WinnerCell({ name, whatsapp, companyName }: { name: string; whatsapp?: string | null; companyName?: string | null }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600} lineClamp={2}>
        {name}
      </Text>
      {whatsapp !== undefined && <WhatsappCell whatsapp={whatsapp} />}
      {companyName && (
        <Text size="xs" c="dimmed" lineClamp={1}>
          {companyName}
        </Text>
      )}
    </Stack>
  );
}

/** The winner's number, opening a WhatsApp chat. */
export function WhatsappCell({ whatsapp }: { whatsapp: string | null }) {
  const { t } = useTranslation();
  const href = whatsappChatHref(whatsapp);
  if (!href) {
    return (
      <Text size="sm" c="dimmed">
        {t('payments.noWhatsapp')}
      </Text>
    );
  }
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm" style={{ whiteSpace: 'nowrap' }}>
      {formatWhatsapp(whatsapp)}
    </Anchor>
  );
}

/** The won items with their prices; a long list folds behind 'Ver todos'. */
export function ItemsCell({ items, wrap = false }: { items: WonItem[] /** Whole names, wrapped, instead of one cut line. */; wrap?: boolean }) {
  const { t } = useTranslation();
  const list = (
    <Stack component="ul" gap={2} m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('payments.itemsCount', { count: items.length })}>
      {items.map((item) => (
        <Group component="li" key={item.auctionId} gap={6} wrap="nowrap" justify="space-between" align="flex-start">
          <Text size="sm" lineClamp={wrap ? undefined : 1} title={item.auctionName} className={wrap ? classes.itemName : undefined}>
            {item.auctionName}
          </Text>
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {formatMoney(item.amount)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
  if (items.length <= 3) return list;
  return (
    <Spoiler maxHeight={72} showLabel={t('payments.showAllItems', { count: items.length })} hideLabel={t('payments.showFewerItems')}>
      {list}
    </Spoiler>
  );
}

export function Money({ amount, strong = false }: { amount: number; strong?: boolean }) {
  return (
    <Text size="sm" fw={strong ? 700 : 400} style={{ whiteSpace: 'nowrap' }}>
      {formatMoney(amount)}
    </Text>
  );
}

/** Carrier and cost in one cell ('Sin envío' when there is neither). */
export function ShippingCell({ carrier, cost }: { carrier: string | null; cost: number }) {
  const { t } = useTranslation();
  if (!carrier && cost <= 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('payments.noShipping')}
      </Text>
    );
  }
  return (
    <Stack gap={0}>
      <Text size="sm" lineClamp={1}>
        {carrier || t('payments.noCarrier')}
      </Text>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {formatMoney(cost)}
      </Text>
    </Stack>
  );
}

export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={PAYMENT_STATUS_COLORS[status]} variant="light" style={BADGE_STYLE}>
      {t(`payments.status.${status}`)}
    </Badge>
  );
}

/** A refund or chargeback after payment: red, with what it means in the tooltip. */
export function FlaggedBadge() {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('payments.flaggedHint')} withinPortal multiline maw={260}>
      <Badge color="red" variant="filled" style={BADGE_STYLE}>
        {t('payments.flagged')}
      </Badge>
    </Tooltip>
  );
}

/** A draft finalize has reserved: its link is being made (or waits for 'Finalizar' after an interruption). */
export function ReservedBadge() {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('payments.reservedHint')} withinPortal multiline maw={260}>
      <Badge color="blue" variant="light" style={BADGE_STYLE}>
        {t('payments.reserved')}
      </Badge>
    </Tooltip>
  );
}

export function StatusCell({ payment }: { payment: Pick<PaymentView, 'paymentStatus' | 'flagged' | 'isReserved'> }) {
  return (
    <Group gap={4}>
      <PaymentStatusBadge status={payment.paymentStatus} />
      {payment.isReserved && <ReservedBadge />}
      {payment.flagged && <FlaggedBadge />}
    </Group>
  );
}

/** The provider's last word on the payment and when it came (the payments modal's webhook column). */
export function WebhookCell({ payment }: { payment: Pick<PaymentView, 'providerStatus' | 'webhookAt' | 'flagged'> }) {
  const { t } = useTranslation();
  if (!payment.providerStatus && !payment.flagged) {
    return (
      <Text size="sm" c="dimmed">
        {t('payments.noWebhook')}
      </Text>
    );
  }
  return (
    <Stack gap={2} align="flex-start">
      <Group gap={4}>
        {payment.providerStatus && (
          <Badge color={providerStatusColor(payment.providerStatus)} variant="outline" size="sm" style={BADGE_STYLE}>
            {t(`payments.provider.${payment.providerStatus}`)}
          </Badge>
        )}
        {payment.flagged && <FlaggedBadge />}
      </Group>
      {payment.webhookAt && (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatDate(payment.webhookAt, SHORT_DATE_TIME)}
        </Text>
      )}
    </Stack>
  );
}

export function DateCell({ value }: { value: string | null }) {
  if (!value) return <Text size="sm">—</Text>;
  return (
    <Text size="sm" component="time" dateTime={value} style={{ whiteSpace: 'nowrap' }}>
      {formatDate(value, SHORT_DATE_TIME)}
    </Text>
  );
}

/** The first characters of the id; the whole id in the tooltip. */
export function PaymentIdCell({ id }: { id: string }) {
  return (
    <Tooltip label={id} withinPortal>
      <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
        {shortId(id)}
      </Text>
    </Tooltip>
  );
}
