import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { formatMoney } from '../../../domain/money.js';
import { formatWhatsapp } from '../../../domain/phone.js';
import type { ShowSummary } from '../../../domain/show-summary.js';
import { showSummaryCsvUrl } from '../../api/show-summary';
import { useTranslation } from '../../i18n';
import { PAYMENT_STATE_COLORS, waMeHref } from './summary-format';

/** The table per buyer (full for the seller's side, masked for others) and its CSV download. */
export function SummaryBuyers({ summary }: { summary: ShowSummary }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={4}>{t('showSummary.buyers.title')}</Title>
        {summary.buyers.length > 0 && (
          <Button component="a" href={showSummaryCsvUrl(summary.sessionId)} download variant="light" size="xs">
            {t('showSummary.buyers.downloadCsv')}
          </Button>
        )}
      </Group>
      {summary.masked && (
        <Alert color="gray" variant="light" p="xs">
          <Text size="sm">{t('showSummary.buyers.masked')}</Text>
        </Alert>
      )}
      {summary.buyers.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('showSummary.buyers.none')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped verticalSpacing="xs" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('showSummary.buyers.name')}</Table.Th>
                <Table.Th>{t('showSummary.buyers.whatsapp')}</Table.Th>
                <Table.Th>{t('showSummary.buyers.lots')}</Table.Th>
                <Table.Th ta="right">{t('showSummary.buyers.total')}</Table.Th>
                <Table.Th>{t('showSummary.buyers.payment')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {summary.buyers.map((buyer, i) => {
                const chat = waMeHref(buyer.whatsapp);
                return (
                  <Table.Tr key={buyer.buyerId ?? `masked-${i}`}>
                    <Table.Td fw={600}>{buyer.name}</Table.Td>
                    <Table.Td>
                      {chat ? (
                        <Anchor href={chat} target="_blank" rel="noopener noreferrer" size="sm">
                          {formatWhatsapp(buyer.whatsapp)}
                        </Anchor>
                      ) : (
                        '—'
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={0}>
                        {buyer.lots.map((lot) => (
                          <Text key={lot.auctionId} size="sm">
                            {lot.name} · {formatMoney(lot.amount)}
                          </Text>
                        ))}
                      </Stack>
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatMoney(buyer.total)}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={PAYMENT_STATE_COLORS[buyer.paymentState]} variant="light" style={{ minWidth: 'max-content' }}>
                        {t(`showSummary.paymentStates.${buyer.paymentState}`)}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
