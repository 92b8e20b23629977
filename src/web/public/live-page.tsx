import { Skeleton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { isUuid } from '../../domain/ids.js';
import { bidKeys } from '../api/bids';
import { liveKeys, useLiveSession } from '../api/live';
import { LazyPart } from '../components/lazy-part';
import { addPageStrings, useTranslation } from '../i18n';
import liveStrings from '../i18n/es-MX.json?section=live';
import { LiveSessionView } from './live/live-session-view';
import { LiveLoadError, LiveNotFound, LiveSkeleton } from './live/live-states';
import { useResyncOnWake } from './live/use-resync-on-wake';
import { PublicLayout } from './public-layout';

// This page's own strings, not in the first load (i18n/parts.ts).
addPageStrings(liveStrings);

// /live, the list of shows, is fetched only there: a show's own link (what buyers open) carries none of it.
const loadDirectory = () => import('./live/live-directory').then((m) => m.LiveDirectory);

interface LivePageProps {
  slug: string | null;
  sessionId: string | null;
}

/**
 * /live, /live/{sessionId}, /live/{slug}/{sessionId}: the public viewing page; works signed out.
 * The id decides which session opens; the slug is only for people reading the link. A failed
 * refetch keeps the show on screen; only a first load that fails shows the error.
 */
export function LivePage({ sessionId }: LivePageProps) {
  if (sessionId !== null && isUuid(sessionId)) return <LiveSession sessionId={sessionId} />;
  return <PublicLayout size="lg">{sessionId === null ? <Directory /> : <LiveNotFound />}</PublicLayout>;
}

function Directory() {
  const { t } = useTranslation();
  return <LazyPart load={loadDirectory} props={{}} loading={<Skeleton h={150} radius="lg" />} failedMessage={t('live.directory.loadFailed')} />;
}

function LiveSession({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const live = useLiveSession(sessionId);

  // A phone that slept (or lost its network) converges at once: the show and the lot's bids.
  const resync = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: liveKeys.detail(sessionId) });
    void queryClient.invalidateQueries({ queryKey: bidKeys.all });
  }, [queryClient, sessionId]);
  useResyncOnWake(resync);

  // The loaded show frames itself (a phone's show has no page around it); the rest sit in the public frame.
  if (live.data) return <LiveSessionView data={live.data} viewerCount={live.viewerCount} />;
  return (
    <PublicLayout size="lg">
      {live.isPending ? (
        <LiveSkeleton />
      ) : live.isError ? (
        <LiveLoadError message={t('live.loadFailed')} onRetry={() => void live.refetch()} />
      ) : (
        <LiveNotFound />
      )}
    </PublicLayout>
  );
}
