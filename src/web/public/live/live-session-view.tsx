import { Alert, Button, Card, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { livePath } from '../../../domain/live-public.js';
import type { LiveSessionData } from '../../api/live';
import { useSocketEvent } from '../../api/socket';
import { ChatIcon, ClockIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import { clockOffset } from '../../lib/countdown';
import { useHasPassed } from '../bidding/use-server-clock';
import { CurrentLot } from './current-lot';
import classes from './live-page.module.css';
import { LiveVideo } from './live-video';
import { buyerLots, isShowStopped, livePageState, sessionTotals } from './live-view';
import { NotOfferedLots, ResultLots, UpcomingLots } from './lot-lists';
import { LotOverlay } from './lot-overlay';
import { ScheduledCountdown } from './scheduled-countdown';
import { UnmuteBanner } from './unmute-banner';
import { useLiveVideo } from './use-live-video';

interface LiveSessionViewProps {
  data: LiveSessionData;
  viewerCount: number | null;
}

/** The loaded show: its title and seller, the video's place, the lot on the block with the bid panel, what comes next and what sold. */
export function LiveSessionView({ data, viewerCount }: LiveSessionViewProps) {
  const { t } = useTranslation();
  const { session, lots } = data;
  const offset = clockOffset(data.serverNow, data.receivedAt);
  const isStartDue = useHasPassed(session.scheduledAt, offset);
  const pageState = livePageState(session.status, isStartDue);
  // 'Detener' sets a show that has begun back to scheduled: no start countdown then (live-view.ts).
  const isStopped = isShowStopped(session, lots, isStartDue);
  const { current, upcoming, results, notOffered } = buyerLots(lots, session);
  const totals = sessionTotals(lots);
  // Editors' answers carry the company (so they see 'your auction' instead of the form).
  const companyId = 'companyId' in session ? session.companyId : null;
  const canonical = livePath(session);

  // Any slug (or none) opens the session: the id decides. The address bar shows the canonical link.
  useEffect(() => {
    if (window.location.pathname !== canonical) {
      window.history.replaceState(window.history.state, '', `${canonical}${window.location.search}${window.location.hash}`);
    }
  }, [canonical]);

  const [isUnmuteAsked, setUnmuteAsked] = useState(false);
  const [isMuted, setMuted] = useState(true);
  const feed = useLiveVideo(session.id, session.broadcasting);
  // 'El vendedor detuvo la transmisión' once a broadcast this page saw ends (not before a first one).
  const [sawBroadcast, setSawBroadcast] = useState(session.broadcasting);
  useEffect(() => {
    if (session.broadcasting) setSawBroadcast(true);
  }, [session.broadcasting]);
  const onMutedChange = useCallback((muted: boolean) => setMuted(muted), []);
  useSocketEvent('promptUnmute', (event) => {
    if (event?.sessionId === session.id) setUnmuteAsked(true);
  });

  const isBeforeShow = !isStopped && (pageState === 'scheduled' || pageState === 'starting');

  return (
    <Stack gap="lg" data-testid="live-session" data-session-id={session.id} data-state={isStopped ? 'stopped' : pageState}>
      {isUnmuteAsked && isMuted && (
        <UnmuteBanner
          onUnmute={() => {
            setMuted(false);
            setUnmuteAsked(false);
          }}
          onDismiss={() => setUnmuteAsked(false)}
        />
      )}
      <Stack gap={6} component="header">
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {session.title}
        </Title>
        {session.sellerName && (
          <Text size="sm" c="dimmed" data-testid="seller-name">
            {t('live.seller', { name: session.sellerName })}
          </Text>
        )}
        {session.whatsappLink && (
          <Button
            component="a"
            href={session.whatsappLink}
            target="_blank"
            rel="noopener noreferrer"
            color="green"
            variant="light"
            leftSection={<ChatIcon />}
            w="fit-content"
            data-testid="whatsapp-link"
          >
            {t('live.whatsapp')}
          </Button>
        )}
      </Stack>

      {pageState === 'paused' && (
        <Alert color="orange" variant="light" icon={<ClockIcon />} title={t('live.paused')} role="status" data-testid="paused-notice">
          {t('live.pausedHint')}
        </Alert>
      )}

      <div className={classes.layout}>
        <div className={classes.stage}>
          <LiveVideo
            title={session.title}
            coverImageUrl={session.coverImageUrl}
            pageState={pageState}
            viewerCount={viewerCount}
            feed={feed}
            muted={isMuted}
            onMutedChange={onMutedChange}
            stopped={(isStopped || sawBroadcast) && !session.broadcasting && pageState !== 'ended'}
            overlay={current && <LotOverlay lot={current} offset={offset} />}
          />
        </div>
        <Stack gap="lg" miw={0}>
          {isBeforeShow && <ScheduledCountdown scheduledAt={session.scheduledAt} offset={offset} isDue={isStartDue} />}
          {pageState === 'ended' && (
            <Card withBorder radius="lg" padding="lg" data-testid="ended-session">
              <Title order={2} size="h4">
                {t('live.ended.title')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('live.ended.hint')}
              </Text>
            </Card>
          )}
          {current ? (
            <CurrentLot key={current.id} sessionId={session.id} lot={current} companyId={companyId} offset={offset} />
          ) : (
            (pageState === 'live' || pageState === 'paused' || isStopped) && (
              <Card withBorder radius="lg" padding="lg" data-testid="waiting-lot">
                <Text c="dimmed">{t('live.current.waiting')}</Text>
              </Card>
            )
          )}
          {pageState !== 'ended' && <UpcomingLots lots={upcoming} heading={t(isBeforeShow ? 'live.upcoming.scheduledHeading' : 'live.upcoming.heading')} />}
          {(results.length > 0 || pageState === 'ended') && <ResultLots lots={results} totals={totals} />}
          {notOffered.length > 0 && <NotOfferedLots lots={notOffered} />}
        </Stack>
      </div>
    </Stack>
  );
}
