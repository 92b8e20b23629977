import { Paper, Tabs } from '@mantine/core';
import { useState } from 'react';
import type { LiveSessionData } from '../../api/live';
import { useTranslation } from '../../i18n';
import { BillShowPanel } from './bill-show-panel';
import { SummaryPanel } from './summary-panel';

type AfterShowTab = 'summary' | 'bill';

/**
 * Below the show's controls in the Hub, for the loaded session: its summary (totals, charts, the
 * table per buyer) during and after the show, and 'Cobrar el show' (one bill per buyer, links,
 * WhatsApp) once there is something to bill. Only the seller's side (canEdit) sees it.
 */
export function AfterShowSection({ detail }: { detail: LiveSessionData }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<AfterShowTab>('summary');
  if (!detail.canEdit || detail.session.rehearsal) return null;
  return (
    <Paper withBorder p="md" radius="md">
      <Tabs value={tab} onChange={(v) => setTab(v === 'bill' ? 'bill' : 'summary')} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="summary">{t('livehub.afterShow.summaryTab')}</Tabs.Tab>
          <Tabs.Tab value="bill">{t('livehub.afterShow.billTab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="summary" pt="md">
          <SummaryPanel detail={detail} />
        </Tabs.Panel>
        <Tabs.Panel value="bill" pt="md">
          <BillShowPanel detail={detail} />
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}
