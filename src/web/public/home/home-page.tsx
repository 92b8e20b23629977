import { Alert, Anchor, Box, Button, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { type HomeAnswer, useHome } from '../../api/home';
import { SearchForm } from '../../components/site-header';
import { addPageStrings, useTranslation } from '../../i18n';
import homeStrings from '../../i18n/es-MX.json?section=home';
import { replaceUrl } from '../../lib/pathname';
import { SELL_PATH } from '../../routes';
import { PublicLayout } from '../public-layout';
import { CategoryChips } from './category-chips';
import { busiestFirst, categoryFromSearch, type DayLabel, groupByDay, inCategory, searchWithCategory } from './home-shows';
import { LiveCard, UpcomingCard } from './show-cards';

// This page's own strings, not in the first load (i18n/parts.ts).
addPageStrings(homeStrings);

const UPCOMING_ID = 'proximos';

/** `/`: the buyers' home for everyone: the search box, categories, the live shows and the upcoming ones. Phone first. */
export function HomePage() {
  const { t } = useTranslation();
  const [categoryId, setCategoryId] = useState(() => (typeof window === 'undefined' ? null : categoryFromSearch(window.location.search)));
  const choose = (id: string | null) => {
    setCategoryId(id);
    replaceUrl(`${window.location.pathname}${searchWithCategory(window.location.search, id)}`);
  };
  return (
    <PublicLayout size="md" search={false}>
      <Stack gap="lg">
        <Stack gap="xs">
          <Title order={1} size="h3">
            {t('home.title')}
          </Title>
          <SearchForm label={t('header.searchLabel')} placeholder={t('header.searchPlaceholder')} categoryId={categoryId} />
        </Stack>
        <HomeContent categoryId={categoryId} onChoose={choose} />
      </Stack>
    </PublicLayout>
  );
}

function HomeContent({ categoryId, onChoose }: { categoryId: string | null; onChoose: (id: string | null) => void }) {
  const home = useHome();
  if (home.data) return <HomeSections data={home.data} categoryId={categoryId} onChoose={onChoose} />;
  if (home.isError) return <LoadError onRetry={() => void home.refetch()} isRetrying={home.isFetching} />;
  return <HomeSkeleton />;
}

function HomeSections({ data, categoryId, onChoose }: { data: HomeAnswer; categoryId: string | null; onChoose: (id: string | null) => void }) {
  const { t } = useTranslation();
  // A chip from a shared link whose category is gone filters nothing.
  const chosen = data.categories.some((category) => category.id === categoryId) ? categoryId : null;
  const live = useMemo(() => busiestFirst(inCategory(data.live, chosen)), [data.live, chosen]);
  const upcoming = useMemo(() => inCategory(data.upcoming, chosen), [data.upcoming, chosen]);
  if (data.live.length === 0 && data.upcoming.length === 0) return <NothingYet />;
  return (
    <Stack gap="xl">
      {data.categories.length > 0 && (
        <CategoryChips
          categories={data.categories}
          chosen={chosen}
          onChoose={onChoose}
          heading={t('home.categories')}
          allLabel={t('home.allCategories')}
          headingId="home-categories"
        />
      )}
      {chosen && live.length === 0 && upcoming.length === 0 ? (
        <Stack gap="xs" align="flex-start" data-testid="home-no-match">
          <Text>{t('home.noMatch')}</Text>
          <Button variant="light" onClick={() => onChoose(null)}>
            {t('home.showAll')}
          </Button>
        </Stack>
      ) : (
        <>
          <LiveSection shows={live} />
          <UpcomingSection shows={upcoming} now={data.serverNow} />
        </>
      )}
    </Stack>
  );
}

function LiveSection({ shows }: { shows: HomeAnswer['live'] }) {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-labelledby="home-live">
      <Title id="home-live" order={2} size="h4" mb="sm">
        {t('home.liveTitle')}
      </Title>
      {shows.length === 0 ? (
        <Stack gap={4} data-testid="home-no-live">
          <Text c="dimmed">{t('home.noLive')}</Text>
          <Anchor href={`#${UPCOMING_ID}`} fw={600}>
            {t('home.seeUpcoming')}
          </Anchor>
        </Stack>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {shows.map((show, index) => (
            <LiveCard key={show.id} show={show} isFirst={index === 0} />
          ))}
        </SimpleGrid>
      )}
    </Box>
  );
}

function dayTitle(label: DayLabel, t: ReturnType<typeof useTranslation>['t']): string {
  if (label.kind === 'today') return t('home.today');
  if (label.kind === 'tomorrow') return t('home.tomorrow');
  return label.text.charAt(0).toUpperCase() + label.text.slice(1);
}

function UpcomingSection({ shows, now }: { shows: HomeAnswer['upcoming']; now: number | undefined }) {
  const { t } = useTranslation();
  const groups = useMemo(() => groupByDay(shows, now ?? Date.now()), [shows, now]);
  return (
    <Box component="section" aria-labelledby="home-upcoming" id={UPCOMING_ID} style={{ scrollMarginTop: 16 }}>
      <Title id="home-upcoming" order={2} size="h4" mb="sm">
        {t('home.upcomingTitle')}
      </Title>
      {groups.length === 0 ? (
        <Text c="dimmed" data-testid="home-no-upcoming">
          {t('home.noUpcoming')}
        </Text>
      ) : (
        <Stack gap="lg">
          {groups.map((group) => (
            <Stack key={group.day} gap="sm" data-testid="upcoming-day">
              <Title order={3} size="h6" c="dimmed" tt="none">
                {dayTitle(group.label, t)}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                {group.shows.map((show) => (
                  <UpcomingCard key={show.id} show={show} />
                ))}
              </SimpleGrid>
            </Stack>
          ))}
        </Stack>
      )}
    </Box>
  );
}

/** No show at all, live or scheduled: say what the page is for, and how to sell on it. */
function NothingYet() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" align="flex-start" py="lg" data-testid="home-empty">
      <Title order={2} size="h4">
        {t('home.emptyTitle')}
      </Title>
      <Text>{t('home.emptyText')}</Text>
      <Button component="a" href={SELL_PATH}>
        {t('home.sell')}
      </Button>
    </Stack>
  );
}

function LoadError({ onRetry, isRetrying }: { onRetry: () => void; isRetrying: boolean }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" title={t('home.loadFailed')} data-testid="home-error">
      <Button variant="light" color="red" size="sm" mt="xs" loading={isRetrying} onClick={onRetry}>
        {t('home.retry')}
      </Button>
    </Alert>
  );
}

/** Only when the HTML brought no data (a later visit, a refetch after an error). */
function HomeSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" data-testid="home-skeleton">
      <Group gap="xs" wrap="nowrap">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} h={28} w={90} radius="xl" />
        ))}
      </Group>
      <Skeleton h={24} w={160} />
      <Skeleton h={220} radius="md" />
      <Skeleton h={24} w={120} />
      <Skeleton h={160} radius="md" />
    </Stack>
  );
}
