import { Anchor, AspectRatio, Badge, Box, Card, Group, Image, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { formatMoney } from '../../../domain/money.js';
import type { StorefrontReplay } from '../../../domain/storefront.js';
import type { ShowCard, StoreAuction } from '../../api/sellers';
import { CalendarButton, RemindButton } from '../../components/follow';
import { BroadcastIcon, EyeIcon, PhotoIcon } from '../../components/icons';
import { type TFunction, useTranslation } from '../../i18n';
import { formatDate } from '../../lib/dates';

/** 'sábado 5 de diciembre · 20:00', in Mexico City. */
export const SHOW_DATE_FORMAT = 'dddd D [de] MMMM · HH:mm';
const AUCTION_END_FORMAT = 'D [de] MMMM, HH:mm';

/** The show on now: the whole banner is the way in. */
export function LiveBanner({ show, sellerName }: { show: ShowCard; sellerName: string }) {
  const { t } = useTranslation();
  return (
    <Card component="a" href={show.url} radius="lg" padding="md" bg="red.8" c="white" data-testid="store-live-banner" style={{ textDecoration: 'none' }}>
      <Group gap="sm" wrap="nowrap" align="center">
        <BroadcastIcon size={28} />
        <Stack gap={2} flex={1} miw={0}>
          <Group gap="xs">
            <Badge color="white" c="red.9" variant="filled" size="sm">
              {t('store.liveNow')}
            </Badge>
            {show.viewerCount > 0 && (
              <Group gap={4} wrap="nowrap">
                <EyeIcon size={14} />
                <Text size="xs" c="white">
                  {t('store.viewers', { count: show.viewerCount })}
                </Text>
              </Group>
            )}
          </Group>
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            {t('store.liveBanner', { name: sellerName, title: show.title })}
          </Text>
          <Text size="sm" fw={600} td="underline">
            {t('store.watch')}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}

/** A scheduled show: when, its first lots with their starting prices, *Avísame* and the calendar. */
export function UpcomingShow({ show }: { show: ShowCard }) {
  return (
    <Card withBorder radius="lg" padding="md" component="article" data-testid="store-upcoming-show" data-session-id={show.id}>
      <Stack gap="sm">
        <Stack gap={2}>
          <Text size="sm" c="martillo.8" fw={600} tt="capitalize">
            {formatDate(show.scheduledAt, SHOW_DATE_FORMAT)}
          </Text>
          <Anchor href={show.url} c="dark.8" fw={700} size="lg" style={{ overflowWrap: 'anywhere' }}>
            {show.title}
          </Anchor>
        </Stack>
        {show.lots.length > 0 && <LotStrip show={show} />}
        <Group gap="xs">
          <RemindButton sessionId={show.id} reminded={show.reminded ?? false} title={show.title} />
          <CalendarButton show={{ id: show.id, title: show.title, url: show.url, scheduledAt: show.scheduledAt, sellerName: show.sellerName }} />
        </Group>
      </Stack>
    </Card>
  );
}

/** The first lots: photo, name, starting price, side by side (scrolling sideways on a phone). */
function LotStrip({ show }: { show: ShowCard }) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" wrap="nowrap" style={{ overflowX: 'auto' }} pb={4}>
      {show.lots.map((lot) => (
        <Box
          key={lot.auctionId}
          component="a"
          href={`${show.url}?lote=${encodeURIComponent(lot.auctionId)}`}
          w={112}
          miw={112}
          style={{ textDecoration: 'none', color: 'inherit' }}
        >
          <Thumb src={lot.imageUrl} size={112} />
          <Text size="xs" lineClamp={1} mt={4}>
            {lot.name}
          </Text>
          <Text size="xs" fw={700}>
            {t('store.from', { price: formatMoney(lot.startingPrice) })}
          </Text>
        </Box>
      ))}
    </Group>
  );
}

function Thumb({ src, size }: { src: string | null; size: number | string }) {
  if (!src)
    return (
      <Box w={size} h={size} bg="gray.2" style={{ borderRadius: 'var(--mantine-radius-md)', display: 'grid', placeItems: 'center' }} aria-hidden="true">
        <PhotoIcon size={24} color="var(--mantine-color-gray-6)" />
      </Box>
    );
  return <Image src={src} alt="" w={size} h={size} radius="md" fit="cover" loading="lazy" />;
}

/** An ended show: title and date, a link to its results; with a replay anyone may watch, its poster and *Ver repetición*. */
export function PastShow({ show }: { show: ShowCard }) {
  const { t } = useTranslation();
  const replay = show.replay ?? null;
  return (
    <Group component="li" justify="space-between" wrap="nowrap" gap="sm" py="xs" data-testid="store-past-show" data-replay={replay ? 'true' : undefined}>
      {replay && <ReplayPoster href={show.url} replay={replay} />}
      <Stack gap={2} miw={0} flex={1}>
        <Anchor href={show.url} c="dark.8" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {show.title}
        </Anchor>
        <Text size="xs" c="dimmed" tt="capitalize">
          {formatDate(show.scheduledAt, SHOW_DATE_FORMAT)}
        </Text>
        {replay && (
          <Anchor href={show.url} size="sm" fw={700} c="martillo.8" data-testid="store-replay-link">
            {replayLabel(replay, t)}
          </Anchor>
        )}
      </Stack>
      {!replay && (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {t('store.ended')}
        </Text>
      )}
    </Group>
  );
}

/** *Ver repetición · 42 min* (or without its length when the server has none). */
function replayLabel(replay: StorefrontReplay, t: TFunction): string {
  if (replay.durationMs === null || replay.durationMs <= 0) return t('store.watchReplay');
  const minutes = Math.max(1, Math.round(replay.durationMs / 60_000));
  const length = minutes < 60 ? t('store.minutes', { minutes }) : t('store.hoursMinutes', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
  return t('store.replayLength', { length });
}

/** The replay's poster (a dark frame without one) with a play mark: a large target for a thumb, the same way in as the title. */
function ReplayPoster({ href, replay }: { href: string; replay: StorefrontReplay }) {
  return (
    <Box
      component="a"
      href={href}
      aria-hidden="true"
      tabIndex={-1}
      pos="relative"
      w={112}
      miw={112}
      h={63}
      bg="dark.6"
      style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden', display: 'block' }}
      data-testid="store-replay-poster"
    >
      {replay.posterUrl && (
        <img
          src={replay.posterUrl}
          alt=""
          loading="lazy"
          decoding="async"
          width={112}
          height={63}
          style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      )}
      <Box pos="absolute" inset={0} style={{ display: 'grid', placeItems: 'center' }}>
        <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
          <circle cx="16" cy="16" r="15" fill="rgba(0, 0, 0, 0.55)" stroke="#fff" strokeWidth="2" />
          <path d="M13 10 L23 16 L13 22 Z" fill="#fff" />
        </svg>
      </Box>
    </Box>
  );
}

/** The seller's open auctions: photo, name, price, when it ends. Two across on a phone. */
export function AuctionGrid({ auctions }: { auctions: StoreAuction[] }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
      {auctions.map((auction) => (
        <Card
          key={auction.id}
          component="a"
          href={auction.url}
          withBorder
          radius="lg"
          padding="xs"
          data-testid="store-auction"
          style={{ textDecoration: 'none', color: 'inherit' }}
        >
          <Card.Section>
            <AspectRatio ratio={1}>
              <Thumb src={auction.imageUrl} size="100%" />
            </AspectRatio>
          </Card.Section>
          <Title order={3} size="sm" fw={600} lineClamp={2} mt="xs">
            {auction.name}
          </Title>
          <Text fw={700}>{formatMoney(auction.price)}</Text>
          {auction.endTime !== null && (
            <Text size="xs" c="dimmed">
              {t('store.endsAt', { date: formatDate(auction.endTime, AUCTION_END_FORMAT) })}
            </Text>
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}
