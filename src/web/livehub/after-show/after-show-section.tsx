import { Paper, Stack, Tabs } from '@mantine/core';
import { useState } from 'react';
import type { LiveSessionData } from '../../api/live';
import { useTranslation } from '../../i18n';
import { BillShowPanel } from './bill-show-panel';
import { ReplayCard } from './replay-card';
import { SummaryPanel } from './summary-panel';

type AfterShowTab = 'summary' | 'bill';

/**
 * Below the show's controls in the Hub, for the loaded session: its summary (totals, charts, the
 * table per buyer) during and after the show, and 'Cobrar el show' (one bill per buyer, links,
 * WhatsApp) once there is something to bill, and the show's 'Repetición' once it has gone live.
 * Only the seller's side (canEdit) sees it. `phone`:
 * the ended show on a phone (phone-shows/phone-after-show.tsx), full width with thumb-sized tabs.
 */
export function AfterShowSection({ detail, layout = 'panel' }: { detail: LiveSessionData; layout?: 'panel' | 'phone' }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<AfterShowTab>('summary');
  if (!detail.canEdit || detail.session.rehearsal) return null;
  const isPhone = layout === 'phone';
  // On a phone (a 390 px screen): the two tabs share the width, each a thumb's height.
  const tabStyle = isPhone ? { minHeight: 44 } : undefined;
  const hasGoneLive = detail.session.status !== 'scheduled';
  const tabs = (
    <Paper withBorder={!isPhone} p={isPhone ? 'sm' : 'md'} radius={isPhone ? 'lg' : 'md'}>
      <Tabs value={tab} onChange={(v) => setTab(v === 'bill' ? 'bill' : 'summary')} keepMounted={false}>
        <Tabs.List grow={isPhone}>
          <Tabs.Tab value="summary" style={tabStyle}>
            {t('livehub.afterShow.summaryTab')}
          </Tabs.Tab>
          <Tabs.Tab value="bill" style={tabStyle}>
            {t('livehub.afterShow.billTab')}
          </Tabs.Tab>
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
  if (!hasGoneLive) return tabs;
  return (
    <Stack gap={isPhone ? 'sm' : 'md'}>
      <ReplayCard detail={detail} layout={layout} />
      {tabs}
    </Stack>
  );
}
