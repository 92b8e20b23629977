import { Alert, Button, Divider, Group, Loader, Progress, Skeleton, Stack, Text } from '@mantine/core';
import { useCallback, useRef, useState } from 'react';
import { formatMoney } from '../../../domain/money.js';
import type { ShowLinkResult } from '../../../domain/show-billing.js';
import type { LiveSessionData } from '../../api/live';
import { useBillShow, useMakeShowLinks, useShowBill } from '../../api/show-billing';
import { useTranslation } from '../../i18n';
import { useErrorText } from '../../lib/use-error-text';
import { amountToCollect, type BillFormValues, hasUnsavedShipping } from './bill-form-values';
import { BillList } from './bill-list';
import { BillPreview } from './bill-preview';
import { BillShippingForm } from './bill-shipping-form';

/**
 * 'Cobrar el show': the show's shipping rules, who is left to bill (with their shipping), one bill
 * per buyer in one click, every link in another, and each bill's WhatsApp message. 'Por cobrar'
 * shows what billing would do now: the saved rules' shipping, included in each total and in the
 * sum, or 'Por definir' until a rule is saved (what is typed counts once it is saved).
 */
export function BillShowPanel({ detail }: { detail: LiveSessionData }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const sessionId = detail.session.id;
  const overview = useShowBill(sessionId);
  const bill = useBillShow(sessionId);
  const links = useMakeShowLinks(sessionId);
  const [values, setValues] = useState<BillFormValues | null>(null);
  const onValuesChange = useCallback((v: BillFormValues) => setValues(v), []);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [results, setResults] = useState<Map<string, ShowLinkResult>>(new Map());
  // A second click while the first runs does nothing (the server is idempotent too).
  const running = useRef(false);

  if (overview.isPending) {
    return (
      <Stack gap="sm" aria-busy="true">
        <Skeleton height={36} />
        <Skeleton height={80} />
        <Skeleton height={80} />
      </Stack>
    );
  }
  if (overview.error || !overview.data) {
    return (
      <Alert color="red" title={t('showBilling.loadError')}>
        <Stack gap="xs">
          <Text size="sm">{errorText(overview.error)}</Text>
          <Button size="xs" variant="light" onClick={() => void overview.refetch()} w="fit-content">
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  const data = overview.data;
  const drafts = data.payments.filter((p) => p.paymentStatus === 'draft');
  const toCollect = amountToCollect(data.preview);
  const isUnsaved = values !== null && hasUnsavedShipping(values, data);

  const runOnce = async (fn: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    try {
      await fn();
    } finally {
      running.current = false;
    }
  };

  const billShow = () =>
    runOnce(async () => {
      setNotice(null);
      try {
        const answer = await bill.mutateAsync(undefined);
        setNotice({ ok: true, text: answer.created > 0 ? t('showBilling.billed', { count: answer.created }) : t('showBilling.billedNone') });
      } catch (err) {
        setNotice({ ok: false, text: errorText(err) });
      }
    });

  const makeLinks = () =>
    runOnce(async () => {
      setNotice(null);
      try {
        const answer = await links.mutateAsync(undefined);
        setResults(new Map(answer.results.map((r) => [r.paymentId, r])));
        const ok = answer.results.filter((r) => r.ok).length;
        setNotice({
          ok: ok === answer.results.length,
          text: answer.results.length === 0 ? t('showBilling.bills.linksNone') : t('showBilling.bills.linksDone', { ok, total: answer.results.length }),
        });
      } catch (err) {
        setNotice({ ok: false, text: errorText(err) });
      }
    });

  const isBusy = bill.isPending || links.isPending;

  return (
    <Stack gap="md">
      <BillShippingForm sessionId={sessionId} shipping={data} onValuesChange={onValuesChange} />
      <Divider />
      <Group justify="space-between" wrap="wrap">
        <Stack gap={0}>
          <Text fw={600}>{t('showBilling.preview.title')}</Text>
          {data.preview.length > 0 && (
            <Text size="sm" data-testid="to-collect">
              {toCollect.shipping === null
                ? t('showBilling.preview.toCollectNoShipping', { amount: formatMoney(toCollect.lots) })
                : t('showBilling.preview.toCollect', { amount: formatMoney(toCollect.total) })}
            </Text>
          )}
        </Stack>
        <Button onClick={() => void billShow()} loading={bill.isPending} disabled={isBusy || !data.rules || data.preview.length === 0}>
          {t('showBilling.bill')}
        </Button>
      </Group>
      {!data.rules ? (
        <Text size="sm" c="orange">
          {t('showBilling.shipping.notSet')}
        </Text>
      ) : null}
      {isUnsaved ? (
        <Text size="sm" c="orange" role="status" data-testid="shipping-unsaved">
          {t('showBilling.shipping.unsaved')}
        </Text>
      ) : null}
      <BillPreview rows={data.preview} />
      {notice ? (
        <Alert
          color={notice.ok ? 'green' : 'red'}
          role={notice.ok ? 'status' : 'alert'}
          withCloseButton
          onClose={() => setNotice(null)}
          closeButtonLabel={t('common.close')}
        >
          {notice.text}
        </Alert>
      ) : null}
      <Divider />
      <Group justify="space-between" wrap="wrap">
        <Text fw={600}>{t('showBilling.bills.title')}</Text>
        <Button onClick={() => void makeLinks()} loading={links.isPending} disabled={isBusy || drafts.length === 0}>
          {t('showBilling.bills.makeLinks')}
        </Button>
      </Group>
      {links.isPending ? (
        <Stack gap={4} role="status">
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">{t('showBilling.bills.makingLinks')}</Text>
          </Group>
          <Progress value={100} animated striped />
        </Stack>
      ) : null}
      {drafts.length > 0 ? (
        <Text size="xs" c="dimmed">
          {t('showBilling.bills.editHint')}
        </Text>
      ) : null}
      <BillList payments={data.payments} results={results} sessionTitle={detail.session.title} rules={data.rules} />
    </Stack>
  );
}
