import { Alert, Button, Container, Grid, Group, Loader, Modal, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Me } from '../../domain/api-types.js';
import { SESSION_LOADED_TOAST_MS } from '../../domain/live.js';
import { useLiveSession } from '../api/live';
import { useHubSessions } from '../api/live-hub';
import { AuctionFormModal } from '../components/auction-form/auction-form-modal';
import { PanelGate } from '../components/panel-gate';
import { ProfileModal } from '../components/profile-modal';
import { RehearsalBanner } from '../components/rehearsal-banner';
import { SiteFooter } from '../components/site-footer';
import { useProfilePrompt } from '../components/use-profile-prompt';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { ADMIN_HOME } from '../routes';
import { AfterShowSection } from './after-show/after-show-section';
import { HubChatPanel } from './chat/hub-chat-panel';
import { CreateSessionModal } from './create-session-modal';
import { CurrentLotFeed } from './current-lot-feed';
import { EditSessionModal } from './edit-session-modal';
import { HubHeader } from './hub-header';
import { searchWithSession, sessionIdFromSearch, useIsPhoneHub } from './hub-layout';
import { ConfirmWindow } from './hub-prompts';
import { HUB_WINDOW } from './hub-windows';
import { LotsPanel } from './lots-panel';
import { useOnAirSession } from './on-air';
import { PhoneHub } from './phone/phone-hub';
import { PhoneAfterShow } from './phone-shows/phone-after-show';
import { PhoneShows } from './phone-shows/phone-shows';
import { PickerModal } from './picker-modal';
import { QuickAuctionModal } from './quick-auction-modal';
import { SessionBar } from './session-bar';
import { SessionsModal } from './sessions-modal';
import { TimerPanel } from './timer-panel';
import { currentLot } from './timer-view';
import { TransmissionPanel } from './transmission-panel';
import './live-hub.css';

/** The page background belongs to the Live Hub only; it is removed when the screen changes. */
function useLiveHubBackground() {
  useEffect(() => {
    document.body.classList.add('livehub-page');
    return () => document.body.classList.remove('livehub-page');
  }, []);
}

/** Any path ending in /livehub (SPEC §2): the seller's broadcast control room. */
export function LiveHub() {
  useLiveHubBackground();
  return <PanelGate inverted>{(me) => <LiveHubScreen me={me} />}</PanelGate>;
}

type Dialog = { kind: 'none' } | { kind: 'create' } | { kind: 'manage' } | { kind: 'auction' } | { kind: 'quick' };

function LiveHubScreen({ me }: { me: Me }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const profilePrompt = useProfilePrompt(me);
  const sessionId = sessionIdFromSearch(location.search);
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const [editId, setEditId] = useState<string | null>(null);
  // Kept after closing, so the picker closes (and leaves the window stack) before it unmounts.
  const [picker, setPicker] = useState<{ sessionId: string; opened: boolean } | null>(null);
  const openPicker = useCallback((id: string) => setPicker({ sessionId: id, opened: true }), []);
  // The session whose 'Sesión cargada' toast is owed once its detail arrives.
  const [toastFor, setToastFor] = useState<string | null>(null);
  const list = useHubSessions();
  // A loaded session on a phone is the camera with its controls (phone/phone-hub.tsx), or an ended
  // show's summary (phone-shows/phone-after-show.tsx): no header, no footer. Without one, the phone
  // lists the seller's shows (phone-shows/phone-shows.tsx) instead of the desktop's selector.
  const isPhone = useIsPhoneHub();
  const isPhoneShow = isPhone && sessionId !== null;
  const close = useCallback(() => setDialog({ kind: 'none' }), []);

  // A move that would stop this page's broadcast asks first (the phone Hub asks its own question).
  const onAirId = useOnAirSession();
  const [leaveTo, setLeaveTo] = useState<(() => void) | null>(null);
  const guarded = useCallback((go: () => void) => (onAirId && !isPhone ? setLeaveTo(() => go) : go()), [onAirId, isPhone]);

  const load = useCallback(
    (id: string) => {
      const go = () => {
        setToastFor(id);
        navigate({ pathname: location.pathname, search: searchWithSession(location.search, id) });
      };
      if (id === sessionId) go();
      else guarded(go);
    },
    [navigate, location.pathname, location.search, sessionId, guarded],
  );
  const unload = useCallback(
    () => guarded(() => navigate({ pathname: location.pathname, search: searchWithSession(location.search, null) })),
    [navigate, location, guarded],
  );

  const barProps = {
    sessions: list.data?.sessions,
    isLoading: list.isPending,
    error: list.isError ? list.error : null,
    onRetry: () => void list.refetch(),
    loadedId: sessionId,
    onLoad: load,
  };

  return (
    <Modal.Stack>
      <Stack mih="100dvh" gap={0} justify="space-between">
        {!isPhoneShow && (
          <HubHeader
            me={me}
            onManageSessions={() => setDialog({ kind: 'manage' })}
            onCreateSession={() => setDialog({ kind: 'create' })}
            onAddAuction={() => setDialog({ kind: 'auction' })}
            onBack={() => guarded(() => navigate(ADMIN_HOME))}
          />
        )}
        <Container
          component={isPhoneShow ? 'div' : 'main'}
          size="xl"
          w="100%"
          py={isPhoneShow ? 0 : 'lg'}
          px={isPhoneShow ? 0 : { base: 'xs', sm: 'md' }}
          flex={1}
        >
          {sessionId ? (
            <LoadedSession
              key={sessionId}
              sessionId={sessionId}
              barProps={barProps}
              toastFor={toastFor}
              onToastShown={() => setToastFor(null)}
              onAddLot={() => openPicker(sessionId)}
              onQuickAuction={() => setDialog({ kind: 'quick' })}
              onEditSession={() => setEditId(sessionId)}
              isPhone={isPhone}
              onLeave={unload}
            />
          ) : isPhone ? (
            <PhoneShows onLoad={load} onCreate={() => setDialog({ kind: 'create' })} onEdit={setEditId} />
          ) : (
            <Stack gap="md">
              <SessionBar {...barProps} loaded={null} />
              {list.isSuccess && (list.data?.sessions.length ?? 0) > 0 && (
                <Paper radius="lg" p="lg">
                  <Text c="dimmed" size="sm">
                    {t('livehub.bar.pickFirst')}
                  </Text>
                </Paper>
              )}
              {/* The camera can be checked before a session is loaded; 'Iniciar' then asks for one (SPEC §8). */}
              <Grid gap="md">
                <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
                  <TransmissionPanel session={null} viewerCount={null} canEdit />
                </Grid.Col>
              </Grid>
            </Stack>
          )}
        </Container>
        {!isPhoneShow && <SiteFooter inverted />}
        <ProfileModal opened={profilePrompt.opened} onClose={profilePrompt.close} me={me} />
        <CreateSessionModal
          opened={dialog.kind === 'create'}
          onClose={close}
          onCreated={(id) => {
            close();
            load(id);
          }}
        />
        <SessionsModal
          opened={dialog.kind === 'manage'}
          onClose={close}
          loadedId={sessionId}
          onLoad={(id) => {
            close();
            load(id);
          }}
          onEdit={setEditId}
          onDeleted={(id) => {
            if (id === sessionId) unload();
          }}
        />
        <EditSessionModal sessionId={editId} onClose={() => setEditId(null)} onAddLot={openPicker} />
        {picker && <PickerModal sessionId={picker.sessionId} opened={picker.opened} onClose={() => setPicker({ ...picker, opened: false })} />}
        <QuickAuctionModal sessionId={sessionId} opened={dialog.kind === 'quick'} onClose={close} />
        <AuctionFormModal opened={dialog.kind === 'auction'} auctionId={null} onClose={close} />
        <ConfirmWindow
          stackId={HUB_WINDOW.leaveOnAir}
          opened={leaveTo !== null}
          title={t('livehub.phone.leaveTitle')}
          cancelLabel={t('livehub.phone.leaveCancel')}
          confirmLabel={t('livehub.phone.leaveConfirm')}
          onCancel={() => setLeaveTo(null)}
          onConfirm={() => {
            const go = leaveTo;
            setLeaveTo(null);
            // Leaving unmounts the broadcast's panel, which stops it.
            go?.();
          }}
        >
          <Text size="sm">{t('livehub.phone.leaveText')}</Text>
        </ConfirmWindow>
      </Stack>
    </Modal.Stack>
  );
}

interface LoadedSessionProps {
  sessionId: string;
  barProps: Omit<Parameters<typeof SessionBar>[0], 'loaded'>;
  toastFor: string | null;
  onToastShown: () => void;
  onAddLot: () => void;
  onQuickAuction: () => void;
  onEditSession: () => void;
  /** The phone layout (phone/phone-hub.tsx) instead of the panels. */
  isPhone: boolean;
  onLeave: () => void;
}

/** The loaded session, followed live through its room (`useLiveSession`). */
function LoadedSession({ sessionId, barProps, toastFor, onToastShown, onAddLot, onQuickAuction, onEditSession, isPhone, onLeave }: LoadedSessionProps) {
  const { t } = useTranslation();
  const live = useLiveSession(sessionId, { host: true });
  const data = live.data;
  const lot = data ? currentLot(data) : null;
  const [leaderName, setLeaderName] = useState<string | null>(null);

  useEffect(() => {
    if (toastFor !== sessionId || data === undefined) return;
    if (data) notifications.show({ color: 'green', message: t('livehub.bar.loaded'), autoClose: SESSION_LOADED_TOAST_MS });
    onToastShown();
  }, [toastFor, sessionId, data, onToastShown, t]);

  const loaded = data ? { title: data.session.title, status: data.session.status } : null;
  const feed = lot && <CurrentLotFeed key={lot.auctionId} sessionId={sessionId} auctionId={lot.auctionId} onLeader={setLeaderName} />;

  // An ended show on a phone opens its summary and its bills, never the live controls or the camera.
  if (isPhone && data?.session.status === 'ended') return <PhoneAfterShow detail={data} onLeave={onLeave} />;
  if (isPhone && data) {
    return (
      <>
        <PhoneHub
          detail={data}
          viewerCount={live.viewerCount}
          leaderName={leaderName}
          onLeave={onLeave}
          onAddLot={onAddLot}
          onQuickAuction={onQuickAuction}
          onEditSession={onEditSession}
        />
        {feed}
      </>
    );
  }

  if (isPhone) return <PhoneSessionState live={live} onLeave={onLeave} />;

  return (
    <Stack gap="md">
      <SessionBar {...barProps} loaded={loaded} />
      {data === null && (
        <Alert color="red" variant="light" role="alert" title={t('livehub.bar.notFound')}>
          {t('livehub.bar.notFoundHint')}
        </Alert>
      )}
      {data === undefined && live.isError && (
        <Alert color="red" variant="light" role="alert">
          <Group justify="space-between" gap="xs">
            <Text size="sm">{apiErrorText(live.error, { networkMessage: t('common.networkError'), fallback: t('livehub.bar.sessionLoadFailed') })}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void live.refetch()}>
              {t('common.retry')}
            </Button>
          </Group>
        </Alert>
      )}
      {data === undefined && !live.isError && (
        <Paper radius="lg" p="lg">
          <Group gap="xs" justify="center" role="status">
            <Loader size="sm" />
            <Text size="sm">{t('livehub.bar.sessionLoading')}</Text>
          </Group>
        </Paper>
      )}
      {data && (
        <>
          {!data.canEdit && (
            <Alert color="yellow" variant="light">
              {t('livehub.bar.readOnly')}
            </Alert>
          )}
          {data.session.rehearsal && <RehearsalBanner where="hub" />}
          <Grid gap="md">
            <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
              <Stack gap="md">
                <TransmissionPanel key={data.session.id} session={data.session} viewerCount={live.viewerCount} canEdit={data.canEdit} />
                <HubChatPanel sessionId={sessionId} isEnded={data.session.status === 'ended'} />
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>
              <Stack gap="md">
                <TimerPanel detail={data} />
                <LotsPanel detail={data} onAddLot={onAddLot} onQuickAuction={onQuickAuction} leaderName={leaderName} />
              </Stack>
            </Grid.Col>
          </Grid>
          <AfterShowSection detail={data} />
          {feed}
        </>
      )}
    </Stack>
  );
}

/** A phone's loaded session before its detail is here: loading, not found or failed, with the way back to the list. */
function PhoneSessionState({ live, onLeave }: { live: ReturnType<typeof useLiveSession>; onLeave: () => void }) {
  const { t } = useTranslation();
  const back = (
    <Button variant="white" color="dark" mih={44} onClick={onLeave}>
      {t('livehub.phoneShows.back')}
    </Button>
  );
  return (
    <Stack component="main" gap="md" p="md" mih="100dvh" justify="center">
      {live.data === null ? (
        <Alert color="red" variant="filled" role="alert" title={t('livehub.bar.notFound')}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('livehub.phoneShows.notFoundHint')}</Text>
            {back}
          </Stack>
        </Alert>
      ) : live.isError ? (
        <Alert color="red" variant="filled" role="alert">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{apiErrorText(live.error, { networkMessage: t('common.networkError'), fallback: t('livehub.bar.sessionLoadFailed') })}</Text>
            <Group gap="xs">
              <Button variant="white" color="red" mih={44} onClick={() => void live.refetch()}>
                {t('common.retry')}
              </Button>
              {back}
            </Group>
          </Stack>
        </Alert>
      ) : (
        <Group gap="xs" justify="center" role="status" c="white">
          <Loader size="sm" color="white" />
          <Text size="sm">{t('livehub.bar.sessionLoading')}</Text>
        </Group>
      )}
    </Stack>
  );
}
