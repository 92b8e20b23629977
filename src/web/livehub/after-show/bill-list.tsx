import { Badge, Button, CopyButton, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import type { ShippingRules } from '../../../domain/after-show.js';
import { formatMoney } from '../../../domain/money.js';
import type { PaymentView } from '../../../domain/payments.js';
import { formatDeadline, type ShowLinkResult, showBillWhatsapp } from '../../../domain/show-billing.js';
import { useTranslation } from '../../i18n';

const STATUS_COLOR: Record<PaymentView['paymentStatus'], string> = { draft: 'gray', pending: 'yellow', paid: 'green', canceled: 'red' };

interface BillListProps {
  payments: PaymentView[];
  /** The last 'Generar enlaces' outcome of each bill, by payment id. */
  results: Map<string, ShowLinkResult>;
  sessionTitle: string;
  rules: ShippingRules | null;
}

/** The show's bills, each with its status, its link's outcome, 'Enviar por WhatsApp' and 'Copiar enlace'. */
export function BillList({ payments, results, sessionTitle, rules }: BillListProps) {
  const { t } = useTranslation();
  if (payments.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('showBilling.bills.empty')}
      </Text>
    );
  }
  return (
    <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('showBilling.bills.title')}>
      {payments.map((p) => {
        const result = results.get(p.id);
        const wa = showBillWhatsapp(
          { ...p, sessionTitle, pickupAddress: rules?.mode === 'pickup' ? rules.pickupAddress : null },
          { origin: window.location.origin, format: formatMoney },
        );
        const waButton = (
          <Button
            component="a"
            href={wa ?? undefined}
            target="_blank"
            rel="noopener noreferrer"
            size="xs"
            color="green"
            disabled={!wa}
            data-disabled={!wa || undefined}
            onClick={(e) => {
              if (!wa) e.preventDefault();
            }}
          >
            {t('showBilling.bills.whatsapp')}
          </Button>
        );
        return (
          <Paper component="li" key={p.id} withBorder p="sm" radius="md" data-payment-id={p.id}>
            <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
              <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                <Group gap="xs">
                  <Text fw={600}>{p.winnerName}</Text>
                  <Badge color={STATUS_COLOR[p.paymentStatus]} variant="light">
                    {t(`payments.status.${p.paymentStatus}`)}
                  </Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  {p.wonItems.map((i) => i.auctionName).join(', ')}
                </Text>
                <Text size="sm">
                  {p.shippingCarrier ?? ''} {p.shippingCost > 0 ? formatMoney(p.shippingCost) : ''} · <strong>{formatMoney(p.grandTotal)}</strong>
                </Text>
                {p.deadlineAt && p.paymentStatus === 'pending' ? (
                  <Text size="xs" c="dimmed">
                    {t('showBilling.bills.deadline', { date: formatDeadline(p.deadlineAt) })}
                  </Text>
                ) : null}
                {result && !result.ok ? (
                  <Text size="xs" c="red" role="alert">
                    {t('showBilling.bills.linkFailed', { error: result.error ?? '' })}
                  </Text>
                ) : null}
              </Stack>
              <Group gap="xs">
                {wa ? (
                  waButton
                ) : (
                  <Tooltip label={p.winnerWhatsapp ? t('showBilling.bills.noLink') : t('showBilling.bills.noWhatsapp')} withinPortal>
                    <span>{waButton}</span>
                  </Tooltip>
                )}
                {p.paymentLink ? (
                  <CopyButton value={p.paymentLink}>
                    {({ copied, copy }) => (
                      <Button size="xs" variant="default" onClick={copy}>
                        {copied ? t('showBilling.bills.copied') : t('showBilling.bills.copy')}
                      </Button>
                    )}
                  </CopyButton>
                ) : null}
              </Group>
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}
