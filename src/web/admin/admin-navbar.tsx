import { Badge, Button, Divider, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Me } from '../../domain/api-types.js';
import { isAdmin } from '../../domain/role-rules.js';
import { isPlatformAdmin } from '../api/me';
import { useSellerApplications } from '../api/seller-applications';
import { CompanyInfo } from '../components/company-info';
import { DevModeBadge } from '../components/dev-mode-badge';
import { CashIcon, GavelIcon, ReceiptIcon } from '../components/icons';
import { LockIcon, LogoutIcon, PlusIcon, TagIcon, UserIcon, UsersIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { companyEntry } from './companies/company-entry';
import { moderationEntry } from './moderation/moderation-entry';
import type { LazyWindowName } from './panel-windows';
import { MpConnection } from './payments/mp-connection';

interface AdminNavbarProps {
  me: Me;
  onAddAuction: () => void;
  onOpenCategories: () => void;
  onOpenUsers: () => void;
  onOpenCompanies: () => void;
  onOpenModeration: () => void;
  onOpenPayments: () => void;
  onOpenProfile: () => void;
  /** 'Solicitudes': the requests to sell (platform admins). */
  onOpenApplications: () => void;
  /** The pointer or focus reached an entry: its window's code may be fetched ahead of the click. */
  onPrefetch?: (window: LazyWindowName) => void;
  onSignOut: () => void;
  isSigningOut: boolean;
}

function NavButton({
  icon,
  label,
  onClick,
  onIntent,
  badge,
}: {
  icon: ReactNode;
  label: string;
  onClick?: () => void;
  onIntent?: () => void;
  badge?: ReactNode;
}) {
  return (
    <Button
      variant="subtle"
      color="dark"
      justify="flex-start"
      fullWidth
      leftSection={icon}
      onClick={onClick}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      disabled={!onClick}
      rightSection={badge}
      // A disabled entry reads as "not yet": dimmed text, no grey slab.
      bg={onClick ? undefined : 'transparent'}
    >
      {label}
    </Button>
  );
}

/** Sidebar 'Acciones' (SPEC §2), then the payment-provider section. */
export function AdminNavbar({
  me,
  onAddAuction,
  onOpenCategories,
  onOpenUsers,
  onOpenCompanies,
  onOpenModeration,
  onOpenPayments,
  onOpenProfile,
  onOpenApplications,
  onPrefetch,
  onSignOut,
  isSigningOut,
}: AdminNavbarProps) {
  const { t } = useTranslation();
  const admin = isAdmin(me.roles);
  const companies = companyEntry(me);
  const moderation = moderationEntry(me) !== null;
  const intent = (window: LazyWindowName) => (onPrefetch ? () => onPrefetch(window) : undefined);
  const platform = isPlatformAdmin(me);
  // The pending count for the entry's badge: one small read, for platform admins only.
  const pending = useSellerApplications({ enabled: platform, status: 'pending' }).data?.pending ?? 0;

  return (
    <Stack gap="xs" h="100%" component="nav" aria-labelledby="admin-actions-title">
      <Title order={2} size="h6" tt="uppercase" c="dimmed" id="admin-actions-title" px="xs">
        {t('admin.actionsTitle')}
      </Title>
      <NavButton icon={<PlusIcon />} label={t('admin.nav.addAuction')} onClick={onAddAuction} onIntent={intent('auctionForm')} />
      {admin && <NavButton icon={<TagIcon />} label={t('admin.nav.categories')} onClick={onOpenCategories} onIntent={intent('categories')} />}
      {admin && <NavButton icon={<UsersIcon />} label={t('admin.nav.users')} onClick={onOpenUsers} onIntent={intent('users')} />}
      {companies && (
        <NavButton
          icon={<ReceiptIcon />}
          label={t(companies === 'all' ? 'admin.nav.companies' : 'admin.nav.company')}
          onClick={onOpenCompanies}
          onIntent={intent('companies')}
        />
      )}
      {moderation && (
        <NavButton icon={<LockIcon size={18} />} label={t('companies.moderation.nav')} onClick={onOpenModeration} onIntent={intent('moderation')} />
      )}
      <NavButton icon={<CashIcon />} label={t('admin.nav.payments')} onClick={onOpenPayments} onIntent={intent('payments')} />
      {platform && (
        <NavButton
          icon={<GavelIcon />}
          label={t('admin.nav.applications')}
          onClick={onOpenApplications}
          onIntent={intent('applications')}
          badge={
            pending > 0 ? (
              <Badge color="red" size="sm" circle={pending < 10} aria-label={t('admin.nav.applicationsPending', { count: pending })}>
                {pending}
              </Badge>
            ) : undefined
          }
        />
      )}
      <NavButton icon={<UserIcon />} label={t('admin.nav.profile')} onClick={onOpenProfile} onIntent={intent('profile')} />
      <Divider my="xs" />
      <MpConnection />
      <Stack hiddenFrom="sm" gap="sm" mt="auto">
        <Divider />
        <Group>
          <DevModeBadge />
        </Group>
        <CompanyInfo me={me} />
        <Text size="sm" c="dimmed">
          {me.user.email}
        </Text>
        <Button variant="default" leftSection={<LogoutIcon size={16} />} onClick={onSignOut} loading={isSigningOut}>
          {t('auth.signOut')}
        </Button>
      </Stack>
    </Stack>
  );
}
