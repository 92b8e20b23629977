import { Anchor, Badge, Box, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { HomeShow } from '../../api/home';
import { CalendarButton, RemindButton } from '../../components/follow';
import { EyeIcon, PhotoIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import { formatDate, TIME_FORMAT } from '../../lib/dates';
import { storePath } from '../../routes';
import { pesos, Thumb } from './thumb';

/** A lot's square photo filling its column. */
function LotPhoto({ src }: { src: string | null }) {
  return (
    <Box bg="gray.2" c="gray.6" style={{ aspectRatio: '1', borderRadius: 8, overflow: 'hidden', display: 'grid', placeItems: 'center' }}>
      {src ? (
        <img src={src} alt="" loading="lazy" decoding="async" width={120} height={120} style={{ width: '100%', height: '100%', objectFit: 'cover' }} />
      ) : (
        <PhotoIcon size={24} />
      )}
    </Box>
  );
}

function SellerLink({ show }: { show: HomeShow }) {
  const { t } = useTranslation();
  const text = t('home.bySeller', { seller: show.sellerName });
  if (!show.sellerSlug)
    return (
      <Text size="sm" c="dimmed">
        {text}
      </Text>
    );
  return (
    <Anchor href={storePath(show.sellerSlug)} size="sm" fw={600} data-testid="show-seller">
      {text}
    </Anchor>
  );
}

/** *En vivo ahora*: the cover with EN VIVO and the viewers, the title, the lot on the block and its price; a tap opens the show. */
export function LiveCard({ show, isFirst }: { show: HomeShow; isFirst: boolean }) {
  const { t } = useTranslation();
  const lot = show.currentLot ?? null;
  return (
    <Card withBorder radius="md" padding={0} data-testid="live-show">
      <a href={show.url} style={{ color: 'inherit', textDecoration: 'none' }} data-testid="live-show-link">
        <Box pos="relative" style={{ aspectRatio: '16 / 9', background: 'var(--mantine-color-dark-6)', overflow: 'hidden' }}>
          {show.coverUrl && (
            <img
              src={show.coverUrl}
              alt={t('home.cover', { title: show.title })}
              loading={isFirst ? 'eager' : 'lazy'}
              decoding="async"
              width={640}
              height={360}
              style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
            />
          )}
          <Group pos="absolute" top={8} left={8} right={8} justify="space-between">
            <Badge color="red.9" variant="filled" radius="sm">
              {t('home.liveBadge')}
            </Badge>
            <Badge color="dark" variant="filled" radius="sm" leftSection={<EyeIcon size={12} />} data-testid="live-viewers">
              {t('home.viewers', { count: show.viewerCount })}
            </Badge>
          </Group>
        </Box>
        <Stack gap={6} p="sm" pb={4}>
          <Text fw={700} lineClamp={2} component="h3" fz="md" m={0}>
            {show.title}
          </Text>
          {lot && (
            <Group gap="sm" wrap="nowrap" data-testid="live-current-lot">
              <Thumb src={lot.imageUrl} size={48} />
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" lineClamp={1}>
                  {t('home.onTheBlock', { name: lot.name })}
                </Text>
                <Text size="sm" fw={700} c="martillo.9">
                  {t('home.currentPrice', { price: pesos(lot.price) })}
                </Text>
              </Stack>
            </Group>
          )}
        </Stack>
      </a>
      <Box px="sm" pb="sm">
        <SellerLink show={show} />
      </Box>
    </Card>
  );
}

/** *Próximos*: the time, title and seller, the first lots' photos and starting prices, *Avísame* and *Agregar al calendario*. */
export function UpcomingCard({ show }: { show: HomeShow }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="sm" data-testid="upcoming-show">
      <Stack gap={6}>
        <Group gap="xs" wrap="nowrap" align="baseline">
          <Text
            component="time"
            dateTime={new Date(show.scheduledAt).toISOString()}
            fw={800}
            c="martillo.9"
            style={{ flex: 'none' }}
            data-testid="upcoming-time"
          >
            {formatDate(show.scheduledAt, TIME_FORMAT)}
          </Text>
          <Anchor href={show.url} c="dark.9" fw={700} lineClamp={2} data-testid="upcoming-show-link">
            {show.title}
          </Anchor>
        </Group>
        <SellerLink show={show} />
        {show.lots.length > 0 && (
          <SimpleGrid component="ul" cols={3} spacing="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('home.lotsOf', { title: show.title })}>
            {show.lots.slice(0, 3).map((lot) => (
              <Stack component="li" key={lot.auctionId} gap={2} style={{ minWidth: 0 }}>
                <LotPhoto src={lot.imageUrl} />
                <Text size="xs" lineClamp={1}>
                  {lot.name}
                </Text>
                <Text size="xs" fw={700}>
                  {t('home.startingPrice', { price: pesos(lot.startingPrice) })}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        )}
        <Group gap="xs" mt={4}>
          <RemindButton sessionId={show.id} reminded={show.reminded ?? false} title={show.title} />
          <CalendarButton show={show} />
        </Group>
      </Stack>
    </Card>
  );
}
