import { Skeleton, Stack } from '@mantine/core';
import type { PublicReplay } from '../../api/replay-viewing';
import { LazyPart } from '../../components/lazy-part';
import { RehearsalBanner } from '../../components/rehearsal-banner';
import { useTranslation } from '../../i18n';
import { ChatPanel } from '../chat/chat-slots';
import { PublicLayout } from '../public-layout';
import { NotOfferedLots, ResultLots } from './lot-lists';
import classes from './replay.module.css';
import type { ReplayPlayerProps } from './replay-player';
import { EndedShowCard } from './show-cards';
import { ShowHeader } from './show-header';
import type { ShowModel } from './show-model';

// The player and its chapters come only with a ready replay: a live show's page carries none of it.
const loadPlayer = () => import('./replay-player').then((m) => m.ReplayPlayer);

/** A replay whose video can be watched. */
export const isWatchable = (replay: PublicReplay | undefined): replay is PublicReplay & { url: string } => replay?.status === 'ready' && replay.url !== null;

/**
 * An ended show with its replay ready: the page becomes the replay. The video leads, on a phone as
 * wider (its chapters and its chat at their moments under it, or beside it), and what the ended page
 * showed follows: the title and seller, the results, the lots that never ran and the whole chat,
 * read-only (the lines written while nothing was recorded included).
 */
export function ReplayShow({ show, replay }: { show: ShowModel; replay: PublicReplay & { url: string } }) {
  const { t } = useTranslation();
  const { session } = show;
  return (
    <PublicLayout size="lg">
      {session.rehearsal && <RehearsalBanner where="page" />}
      <Stack gap="lg" data-testid="live-session" data-session-id={session.id} data-state="ended" data-layout="replay">
        <LazyPart<ReplayPlayerProps>
          load={loadPlayer}
          props={{ sessionId: session.id, replay, title: session.title }}
          loading={<Skeleton className={classes.stage} />}
          failedMessage={t('live.replay.loadFailed')}
        />
        <ShowHeader session={session} />
        <EndedShowCard withBorder padding="lg" />
        <ResultLots lots={show.results} totals={show.totals} />
        {show.notOffered.length > 0 && <NotOfferedLots lots={show.notOffered} />}
        <ChatPanel sessionId={session.id} isEnded />
      </Stack>
    </PublicLayout>
  );
}
