import { Badge, Button, CloseButton, Group, Kbd, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { Fragment, type RefObject } from 'react';
import type { AuctionCounts } from '../../../domain/auctions.js';
import { SearchIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import type { SearchDraft } from '../use-search-draft';
import { SHORTCUT_KEY_OF } from './use-auction-shortcuts';
import { AUCTION_VIEWS, type AuctionView, MAX_SEARCH_LENGTH } from './view-state';

interface AuctionFilterBarProps {
  view: AuctionView;
  onView: (view: AuctionView) => void;
  /** From the list response; undefined until the first page arrives. */
  counts: AuctionCounts | undefined;
  search: SearchDraft;
  searchRef: RefObject<HTMLInputElement | null>;
  /** Smaller buttons so the three filters share one row on a phone. */
  isCompact?: boolean;
}

/** SPEC §2: the filter buttons with their counts, the search box and a hint of the shortcuts. */
export function AuctionFilterBar({ view, onView, counts, search, searchRef, isCompact = false }: AuctionFilterBarProps) {
  const { t } = useTranslation();

  const onSearchKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      search.applyNow();
    } else if (event.key === 'Escape') {
      if (search.draft) {
        event.preventDefault();
        search.clear();
      } else {
        event.currentTarget.blur();
      }
    }
  };

  return (
    <Stack gap="sm">
      <Group gap={isCompact ? 6 : 'xs'} role="group" aria-label={t('auctions.filters.label')}>
        {AUCTION_VIEWS.map((item) => {
          const isActive = item === view;
          const count = item === 'winners' ? null : counts?.[item];
          return (
            <Button
              key={item}
              variant={isActive ? 'filled' : 'default'}
              size={isCompact ? 'xs' : 'sm'}
              aria-pressed={isActive}
              aria-keyshortcuts={SHORTCUT_KEY_OF[item]}
              onClick={() => onView(item)}
              rightSection={
                item === 'winners' ? null : count === undefined ? (
                  <Skeleton w={20} h={16} radius="xl" />
                ) : (
                  <Badge size="sm" variant={isActive ? 'white' : 'light'} data-testid={`count-${item}`}>
                    {count}
                  </Badge>
                )
              }
            >
              {t(`auctions.filters.${item}`)}
            </Button>
          );
        })}
      </Group>
      <TextInput
        ref={searchRef}
        value={search.draft}
        onChange={(event) => search.setDraft(event.currentTarget.value)}
        onKeyDown={onSearchKeyDown}
        placeholder={t('auctions.search.placeholder')}
        aria-label={t('auctions.search.label')}
        aria-keyshortcuts="/"
        title={t('auctions.search.hint')}
        maxLength={MAX_SEARCH_LENGTH}
        enterKeyHint="search"
        autoComplete="off"
        spellCheck={false}
        leftSection={<SearchIcon size={16} />}
        rightSectionPointerEvents="all"
        rightSection={search.draft ? <CloseButton size="sm" aria-label={t('auctions.search.clear')} onClick={search.clear} /> : null}
      />
      <ShortcutHint />
    </Stack>
  );
}

/** One quiet line, only where there is a keyboard worth the name. */
function ShortcutHint() {
  const { t } = useTranslation();
  const items: [string, string][] = [
    ...AUCTION_VIEWS.map((item): [string, string] => [SHORTCUT_KEY_OF[item], t(`auctions.filters.${item}`)]),
    ['/', t('auctions.shortcuts.search')],
    ['Esc', t('auctions.shortcuts.clear')],
  ];
  return (
    <Text size="xs" c="dimmed" visibleFrom="sm" data-testid="shortcut-hint">
      {t('auctions.shortcuts.title')}{' '}
      {items.map(([key, label], index) => (
        <Fragment key={key}>
          {index > 0 && ' · '}
          <Kbd size="xs">{key}</Kbd> {label}
        </Fragment>
      ))}
    </Text>
  );
}
