import { Anchor, Badge, Button, Card, Group, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { storePath } from '../../../domain/screens.js';
import { type AlertShow, type FollowedSeller, type Following, useFollowing } from '../../api/follows';
import { useMe } from '../../api/me';
import { CalendarButton, FollowButton, RemindButton } from '../../components/follow';
import { BroadcastIcon } from '../../components/icons';
import { LoadFailed, SignInCard } from '../../components/page-states';
import { addPageStrings, useTranslation } from '../../i18n';
import alertsStrings from '../../i18n/es-MX.json?section=alerts';
import { formatDate } from '../../lib/dates';
import { usePush } from '../../lib/push';
import { PublicLayout } from '../public-layout';

// This page's own strings, not in the first load (i18n/parts.ts).
addPageStrings(alertsStrings);

const SHOW_DATE_FORMAT = 'dddd D [de] MMMM · HH:mm';

/** /alertas, *Mis alertas*: the sellers followed, the shows bookmarked, and alerts on this phone. Phone first. */
export function AlertsPage() {
  const { t } = useTranslation();
  return (
    <PublicLayout size="xs">
      <Stack gap="lg">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {t('alerts.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('alerts.intro')}
          </Text>
        </Stack>
        <AlertsContent />
      </Stack>
    </PublicLayout>
  );
}

function AlertsContent() {
  const { t } = useTranslation();
  const me = useMe();
  const following = useFollowing(Boolean(me.data));
  if (me.isPending || (me.data && following.isPending)) return <AlertsSkeleton />;
  if (me.isError && me.data === undefined) return <LoadFailed title={t('alerts.loadFailed')} onRetry={() => void me.refetch()} isRetrying={me.isFetching} />;
  if (!me.data) return <SignInCard title={t('alerts.signInTitle')} text={t('alerts.signInText')} action={t('alerts.signIn')} testId="alerts-sign-in" />;
  if (following.isError && following.data === undefined)
    return <LoadFailed title={t('alerts.loadFailed')} onRetry={() => void following.refetch()} isRetrying={following.isFetching} />;
  return <AlertsLists data={following.data as Following} />;
}

function AlertsLists({ data }: { data: Following }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xl">
      <PushStatus />
      <Section id="alerts-sellers" title={t('alerts.sellers')} empty={data.sellers.length === 0 ? t('alerts.sellersEmpty') : null}>
        {data.sellers.map((seller) => (
          <SellerRow key={seller.id} seller={seller} />
        ))}
      </Section>
      <Section id="alerts-shows" title={t('alerts.shows')} empty={data.shows.length === 0 ? t('alerts.showsEmpty') : null}>
        {data.shows.map((show) => (
          <ShowRow key={show.id} show={show} />
        ))}
      </Section>
    </Stack>
  );
}

function Section({ id, title, empty, children }: { id: string; title: string; empty: string | null; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id}>
        {title}
      </Title>
      {empty ? (
        <Card withBorder radius="lg" padding="md" data-testid={`${id}-empty`}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{empty}</Text>
            <Button component="a" href="/" variant="light" size="compact-md">
              {t('alerts.browse')}
            </Button>
          </Stack>
        </Card>
      ) : (
        children
      )}
    </Stack>
  );
}

/** A followed seller: name (to their page), live badge (to the show), next show, and *Siguiendo* to undo. */
function SellerRow({ seller }: { seller: FollowedSeller }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="lg" padding="md" data-testid="followed-seller" data-seller-id={seller.id}>
      <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
        <Stack gap={4} miw={0}>
          {seller.slug ? (
            <Anchor href={storePath(seller.slug)} fw={700} c="dark.8" style={{ overflowWrap: 'anywhere' }}>
              {seller.name}
            </Anchor>
          ) : (
            <Text fw={700}>{seller.name}</Text>
          )}
          {seller.live ? (
            <Anchor href={seller.live.url} size="sm" fw={600} c="red.8" data-testid="followed-seller-live">
              <Group gap={4} wrap="nowrap" component="span">
                <Badge color="red" size="xs" variant="filled" leftSection={<BroadcastIcon size={10} />}>
                  {t('alerts.live')}
                </Badge>
                <span style={{ overflowWrap: 'anywhere' }}>{seller.live.title}</span>
              </Group>
            </Anchor>
          ) : (
            <Text size="xs" c="dimmed">
              {seller.nextShow ? t('alerts.nextShow', { date: formatDate(seller.nextShow.scheduledAt, SHOW_DATE_FORMAT) }) : t('alerts.noNextShow')}
            </Text>
          )}
        </Stack>
        <FollowButton sellerId={seller.id} following size="xs" />
      </Group>
    </Card>
  );
}

/** A bookmarked show: when, *Te avisaremos* (one tap undoes), the calendar. */
function ShowRow({ show }: { show: AlertShow }) {
  const { t } = useTranslation();
  const isLive = show.status === 'live' || show.status === 'paused';
  return (
    <Card withBorder radius="lg" padding="md" data-testid="reminded-show" data-session-id={show.id}>
      <Stack gap="xs">
        <Stack gap={0}>
          <Anchor href={show.url} fw={700} c="dark.8" style={{ overflowWrap: 'anywhere' }}>
            {show.title}
          </Anchor>
          <Group gap="xs">
            {isLive && (
              <Badge color="red" size="xs" variant="filled">
                {t('alerts.live')}
              </Badge>
            )}
            <Text size="xs" c="dimmed" tt="capitalize">
              {show.sellerName} · {formatDate(show.scheduledAt, SHOW_DATE_FORMAT)}
            </Text>
          </Group>
        </Stack>
        {!isLive && (
          <Group gap="xs">
            <RemindButton sessionId={show.id} reminded title={show.title} size="xs" />
            <CalendarButton show={{ id: show.id, title: show.title, url: show.url, scheduledAt: show.scheduledAt, sellerName: show.sellerName }} size="xs" />
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/** Alerts on this phone: on, off, blocked, needs the home screen (iPhone), or not supported; and the button that turns them on. */
function PushStatus() {
  const { t } = useTranslation();
  const push = usePush();
  if (push.state === null) return <Skeleton h={96} radius="lg" />;
  const state = push.state;
  const color = state === 'on' ? 'green' : state === 'blocked' ? 'red' : 'gray';
  return (
    <Card withBorder radius="lg" padding="md" data-testid="push-status" data-state={state}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4">
            {t('alerts.notifications')}
          </Title>
          <Badge color={color} variant="light">
            {t(`alerts.status.${state}`)}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {t(`alerts.statusHint.${state}`)}
        </Text>
        {Boolean(push.error) && (
          <Text size="sm" c="red.8" role="alert">
            {t('alerts.enableFailed')}
          </Text>
        )}
        {state === 'off' && (
          <Button onClick={() => void push.enable()} loading={push.isWorking} w="fit-content" data-testid="enable-push">
            {t('alerts.enable')}
          </Button>
        )}
        {state === 'on' && (
          <Button variant="default" onClick={() => void push.disable()} loading={push.isWorking} w="fit-content" size="compact-md">
            {t('alerts.disable')}
          </Button>
        )}
      </Stack>
    </Card>
  );
}

function AlertsSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" role="status" aria-live="polite">
      <VisuallyHidden>{t('alerts.loading')}</VisuallyHidden>
      <Skeleton h={96} radius="lg" />
      <Skeleton h={80} radius="lg" />
      <Skeleton h={80} radius="lg" />
    </Stack>
  );
}
