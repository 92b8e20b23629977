import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { SEARCH_MAX, SEARCH_MIN, type SearchItem, useHome, useSearch } from '../../api/home';
import { SearchForm } from '../../components/site-header';
import { addPageStrings, useTranslation } from '../../i18n';
import searchStrings from '../../i18n/es-MX.json?section=search';
import { formatDate } from '../../lib/dates';
import { replaceUrl } from '../../lib/pathname';
import { CategoryChips } from '../home/category-chips';
import { categoryFromSearch } from '../home/home-shows';
import { pesos, Thumb } from '../home/thumb';
import { PublicLayout } from '../public-layout';
import { queryState, resultWhen, searchPageUrl } from './search-state';

// This page's own strings, not in the first load (i18n/parts.ts).
addPageStrings(searchStrings);

/** 'sábado 5 de diciembre, 18:00', in Mexico City. */
const WHEN_FORMAT = 'dddd D [de] MMMM, HH:mm';

/** How long typing rests before the page searches and rewrites its address. */
const DEBOUNCE_MS = 300;

/** `/buscar?q=&categoria=`: the lots of live and scheduled shows and open auctions, as the buyer types. */
export function SearchPage() {
  const { t } = useTranslation();
  const [initial] = useState(() => {
    const params = new URLSearchParams(typeof window === 'undefined' ? '' : window.location.search);
    return { q: params.get('q') ?? '', categoryId: categoryFromSearch(typeof window === 'undefined' ? '' : window.location.search) };
  });
  const [text, setText] = useState(initial.q);
  const [query, setQuery] = useState(initial.q);
  const [categoryId, setCategoryId] = useState(initial.categoryId);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const commit = (value: string) => {
    clearTimeout(timer.current);
    setQuery(value);
    replaceUrl(searchPageUrl(value.trim(), categoryId));
  };
  const type = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(value), DEBOUNCE_MS);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  const choose = (id: string | null) => {
    setCategoryId(id);
    replaceUrl(searchPageUrl(query.trim(), id));
  };

  return (
    <PublicLayout size="sm" search={false}>
      <Stack gap="md">
        <Title order={1} size="h3">
          {t('search.title')}
        </Title>
        <SearchForm
          value={text}
          onChange={type}
          onSubmit={commit}
          label={t('search.label')}
          placeholder={t('search.placeholder')}
          autoFocus={initial.q === ''}
        />
        <SearchCategories chosen={categoryId} onChoose={choose} />
        <SearchResults text={query} categoryId={categoryId} />
      </Stack>
    </PublicLayout>
  );
}

/**
 * The categories with something for sale, as the home lists them (its answer, cached when the buyer
 * came from the home): a chip narrows the results. None while they load: the search does not wait.
 */
function SearchCategories({ chosen, onChoose }: { chosen: string | null; onChoose: (id: string | null) => void }) {
  const { t } = useTranslation();
  const categories = useHome().data?.categories ?? [];
  if (categories.length === 0) return null;
  return (
    <CategoryChips
      categories={categories}
      chosen={chosen}
      onChoose={onChoose}
      heading={t('search.category')}
      allLabel={t('search.allCategories')}
      headingId="search-categories"
    />
  );
}

function SearchResults({ text, categoryId }: { text: string; categoryId: string | null }) {
  const { t } = useTranslation();
  const state = queryState(text);
  const search = useSearch(state.kind === 'ready' ? state.q : '', categoryId);
  if (state.kind === 'empty') return <Text c="dimmed">{t('search.hint')}</Text>;
  if (state.kind === 'tooShort')
    return (
      <Text c="dimmed" role="status" data-testid="search-too-short">
        {t('search.tooShort', { min: SEARCH_MIN })}
      </Text>
    );
  if (state.kind === 'tooLong')
    return (
      <Text c="red.8" role="status">
        {t('search.tooLong', { max: SEARCH_MAX })}
      </Text>
    );
  if (search.isError && !search.data)
    return (
      <Alert color="red" variant="light" title={t('search.loadFailed')} data-testid="search-error">
        <Button variant="light" color="red" size="sm" mt="xs" loading={search.isFetching} onClick={() => void search.refetch()}>
          {t('search.retry')}
        </Button>
      </Alert>
    );
  if (!search.data) return <ResultsSkeleton />;
  const items = search.data.items;
  // The last answer stays while the next one comes (keepPreviousData), dimmed.
  const isStale = search.isPlaceholderData;
  return (
    <Stack gap="sm" style={{ opacity: isStale ? 0.6 : 1 }} aria-busy={isStale}>
      {items.length === 0 ? (
        <Text role="status" data-testid="search-empty">
          {categoryId ? t('search.emptyInCategory', { q: state.q }) : t('search.empty', { q: state.q })}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" role="status">
            {t('search.results', { count: items.length, q: state.q })}
          </Text>
          <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
            {items.map((item) => (
              <li key={`${item.kind}:${item.auctionId}`}>
                <ResultCard item={item} />
              </li>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}

function ResultCard({ item }: { item: SearchItem }) {
  const { t } = useTranslation();
  const when = resultWhen(item);
  return (
    <Card withBorder radius="md" padding="sm" component="a" href={item.url} data-testid="search-result" style={{ color: 'inherit', textDecoration: 'none' }}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Thumb src={item.imageUrl} size={72} />
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={700} lineClamp={2}>
            {item.name}
          </Text>
          <Text fw={700} c="martillo.9">
            {pesos(item.price)}
          </Text>
          {when.kind === 'live' ? (
            <Badge color="red.9" variant="filled" radius="sm" w="fit-content">
              {t('search.liveNow')}
            </Badge>
          ) : (
            <Text size="sm" c="dimmed">
              {when.kind === 'show'
                ? t('search.showAt', { date: formatDate(when.at, WHEN_FORMAT) })
                : when.endsAt === null
                  ? t('search.auction')
                  : t('search.auctionEnds', { date: formatDate(when.endsAt, WHEN_FORMAT) })}
            </Text>
          )}
        </Stack>
      </Group>
    </Card>
  );
}

function ResultsSkeleton() {
  return (
    <Stack gap="sm" aria-busy="true" data-testid="search-loading">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} h={96} radius="md" />
      ))}
    </Stack>
  );
}
