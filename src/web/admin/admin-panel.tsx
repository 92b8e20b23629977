import { AppShell, Box, Container } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Me } from '../../domain/api-types.js';
import { useAuctionListRefresh } from '../api/auctions';
import { useSignOut } from '../api/auth';
import { PanelGate } from '../components/panel-gate';
import { ProfileModal } from '../components/profile-modal';
import { SiteFooter } from '../components/site-footer';
import { useProfilePrompt } from '../components/use-profile-prompt';
import { AdminHeader } from './admin-header';
import { AdminHome } from './admin-home';
import { AdminNavbar } from './admin-navbar';
import { AuctionFormModal } from './auction-form/auction-form-modal';
import { CategoriesModal } from './categories/categories-modal';
import { CompaniesModal } from './companies/companies-modal';
import { UsersModal } from './users/users-modal';

/** Every path that is not the Live Hub or a public page (SPEC §2). */
export function AdminPanel() {
  return <PanelGate>{(me) => <AdminShell me={me} />}</PanelGate>;
}

type AdminModal = { kind: 'auction'; auctionId: string | null } | { kind: 'categories' } | { kind: 'users' } | { kind: 'companies' } | null;

function AdminShell({ me }: { me: Me }) {
  const { t } = useTranslation();
  const [isNavOpened, nav] = useDisclosure(false);
  const profilePrompt = useProfilePrompt(me);
  const { signOut, isSigningOut, error: signOutError } = useSignOut();
  const [modal, setModal] = useState<AdminModal>(null);
  useAuctionListRefresh();

  useEffect(() => {
    if (signOutError) notifications.show({ color: 'red', message: t('auth.signOutFailed') });
  }, [signOutError, t]);

  const openProfile = () => {
    nav.close();
    profilePrompt.open();
  };
  const openModal = (next: Exclude<AdminModal, null>) => {
    nav.close();
    setModal(next);
  };
  const closeModal = () => setModal(null);

  return (
    <AppShell header={{ height: 64 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !isNavOpened } }} padding="md">
      <AppShell.Header>
        <AdminHeader me={me} isNavOpened={isNavOpened} onToggleNav={nav.toggle} onSignOut={signOut} isSigningOut={isSigningOut} />
      </AppShell.Header>
      <AppShell.Navbar p="md">
        <AdminNavbar
          me={me}
          onAddAuction={() => openModal({ kind: 'auction', auctionId: null })}
          onOpenCategories={() => openModal({ kind: 'categories' })}
          onOpenUsers={() => openModal({ kind: 'users' })}
          onOpenCompanies={() => openModal({ kind: 'companies' })}
          onOpenProfile={openProfile}
          onSignOut={signOut}
          isSigningOut={isSigningOut}
        />
      </AppShell.Navbar>
      <AppShell.Main>
        <Box mih="calc(100dvh - 64px - 2 * var(--mantine-spacing-md))" display="flex" style={{ flexDirection: 'column' }}>
          <Container size="lg" w="100%" px={0} flex={1}>
            <AdminHome me={me} onEditAuction={(auctionId) => setModal({ kind: 'auction', auctionId })} />
          </Container>
          <SiteFooter />
        </Box>
      </AppShell.Main>
      <ProfileModal opened={profilePrompt.opened} onClose={profilePrompt.close} me={me} />
      <AuctionFormModal opened={modal?.kind === 'auction'} auctionId={modal?.kind === 'auction' ? modal.auctionId : null} onClose={closeModal} />
      <CategoriesModal opened={modal?.kind === 'categories'} onClose={closeModal} />
      <UsersModal opened={modal?.kind === 'users'} onClose={closeModal} me={me} />
      <CompaniesModal opened={modal?.kind === 'companies'} onClose={closeModal} me={me} />
    </AppShell>
  );
}
