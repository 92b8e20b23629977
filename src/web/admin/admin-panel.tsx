import { AppShell, Box, Container } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import type { Me } from '../../domain/api-types.js';
import { isAdmin } from '../../domain/role-rules.js';
import { useAuctionListRefresh } from '../api/auctions';
import { useSignOut } from '../api/auth';
import { isPlatformAdmin } from '../api/me';
import { PanelGate } from '../components/panel-gate';
import { SiteFooter } from '../components/site-footer';
import { useProfilePrompt } from '../components/use-profile-prompt';
import { useTranslation } from '../i18n';
import { AdminHeader } from './admin-header';
import { AdminHome } from './admin-home';
import { AdminNavbar } from './admin-navbar';
import { companyEntry } from './companies/company-entry';
import { LazyWindow } from './lazy-window';
import { moderationEntry } from './moderation/moderation-entry';
import type { PanelWindow } from './panel-url';
import { prefetchWindow, WINDOWS } from './panel-windows';
import { usePanelWindow } from './use-panel-window';

/** Every path that is not the Live Hub or a public page (SPEC §2). */
export function AdminPanel() {
  return <PanelGate>{(me) => <AdminShell me={me} />}</PanelGate>;
}

/** The auction form stays out of the URL (it holds unsaved input); the other windows live there (use-panel-window.ts). */
type AuctionModal = { auctionId: string | null } | null;

function AdminShell({ me }: { me: Me }) {
  const { t } = useTranslation();
  const [isNavOpened, nav] = useDisclosure(false);
  const profilePrompt = useProfilePrompt(me);
  const { signOut, isSigningOut, error: signOutError } = useSignOut();
  const [auctionModal, setAuctionModal] = useState<AuctionModal>(null);
  const windows = usePanelWindow();
  // A window the user may not open (a link to 'Categorías' for a seller) is simply not opened.
  const admin = isAdmin(me.roles);
  const allowed: Record<PanelWindow, boolean> = {
    categories: admin,
    users: admin,
    companies: companyEntry(me) !== null,
    moderation: moderationEntry(me) !== null,
    payments: true,
    profile: true,
    applications: isPlatformAdmin(me),
  };
  const openWindow = windows.state.window && allowed[windows.state.window] ? windows.state.window : null;
  useAuctionListRefresh();

  useEffect(() => {
    if (signOutError) notifications.show({ color: 'red', message: t('auth.signOutFailed') });
  }, [signOutError, t]);

  const open = (next: PanelWindow) => {
    nav.close();
    windows.open(next);
  };
  // 'Mi perfil' lives in the URL; the prompt for an incomplete profile opens by itself on load and does not.
  const closeProfile = () => {
    profilePrompt.close();
    if (openWindow === 'profile') windows.close();
  };

  return (
    <AppShell header={{ height: 64 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !isNavOpened } }} padding="md">
      <AppShell.Header>
        <AdminHeader me={me} isNavOpened={isNavOpened} onToggleNav={nav.toggle} onSignOut={signOut} isSigningOut={isSigningOut} />
      </AppShell.Header>
      <AppShell.Navbar p="md">
        <AdminNavbar
          me={me}
          onAddAuction={() => {
            nav.close();
            setAuctionModal({ auctionId: null });
          }}
          onOpenCategories={() => open('categories')}
          onOpenUsers={() => open('users')}
          onOpenCompanies={() => open('companies')}
          onOpenModeration={() => open('moderation')}
          onOpenPayments={() => open('payments')}
          onOpenProfile={() => open('profile')}
          onOpenApplications={() => open('applications')}
          onPrefetch={prefetchWindow}
          onSignOut={signOut}
          isSigningOut={isSigningOut}
        />
      </AppShell.Navbar>
      <AppShell.Main>
        <Box
          onPointerOver={() => prefetchWindow('auctionForm')}
          onFocus={() => prefetchWindow('auctionForm')}
          mih="calc(100dvh - 64px - 2 * var(--mantine-spacing-md))"
          display="flex"
          style={{ flexDirection: 'column' }}
        >
          <Container size="lg" w="100%" px={0} flex={1}>
            <AdminHome me={me} onEditAuction={(auctionId) => setAuctionModal({ auctionId })} />
          </Container>
          <SiteFooter />
        </Box>
      </AppShell.Main>
      <LazyWindow
        load={WINDOWS.profile}
        title={t('profile.title')}
        size="lg"
        props={{ opened: profilePrompt.opened || openWindow === 'profile', onClose: closeProfile, me }}
      />
      <LazyWindow
        load={WINDOWS.auctionForm}
        title={auctionModal?.auctionId ? t('auctionForm.titleEdit') : t('auctionForm.titleCreate')}
        size="xl"
        props={{ opened: auctionModal !== null, auctionId: auctionModal?.auctionId ?? null, onClose: () => setAuctionModal(null) }}
      />
      <LazyWindow load={WINDOWS.categories} title={t('categories.title')} size="lg" props={{ opened: openWindow === 'categories', onClose: windows.close }} />
      <LazyWindow load={WINDOWS.users} title={t('users.title')} size="70rem" props={{ opened: openWindow === 'users', onClose: windows.close, me }} />
      <LazyWindow
        load={WINDOWS.companies}
        title={companyEntry(me) === 'all' ? t('companies.titleAll') : t('companies.title')}
        size={companyEntry(me) === 'all' ? '50rem' : 'md'}
        props={{ opened: openWindow === 'companies', onClose: windows.close, me }}
      />
      <LazyWindow
        load={WINDOWS.moderation}
        title={t('companies.moderation.title')}
        size="60rem"
        props={{ opened: openWindow === 'moderation', onClose: windows.close, me }}
      />
      <LazyWindow
        load={WINDOWS.payments}
        title={t('payments.modal.title')}
        size="80rem"
        props={{ opened: openWindow === 'payments', onClose: windows.close }}
      />
      <LazyWindow
        load={WINDOWS.applications}
        title={t('admin.applications.title')}
        size="50rem"
        props={{ opened: openWindow === 'applications', onClose: windows.close }}
      />
    </AppShell>
  );
}
