import { Anchor, Box, Burger, Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import type { Me } from '../../domain/api-types.js';
import { BrandMark } from '../components/brand-mark';
import { CompanyInfo } from '../components/company-info';
import { DevModeBadge } from '../components/dev-mode-badge';
import { BroadcastIcon } from '../components/icons';
import { LogoutIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { ADMIN_HOME, LIVE_HUB_PATH } from '../routes';

interface AdminHeaderProps {
  me: Me;
  isNavOpened: boolean;
  onToggleNav: () => void;
  onSignOut: () => void;
  isSigningOut: boolean;
}

export function AdminHeader({ me, isNavOpened, onToggleNav, onSignOut, isSigningOut }: AdminHeaderProps) {
  const { t } = useTranslation();

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="sm" wrap="nowrap" miw={0}>
        <Burger opened={isNavOpened} onClick={onToggleNav} hiddenFrom="sm" size="sm" aria-label={t('common.toggleNavigation')} aria-expanded={isNavOpened} />
        <Anchor component={Link} to={ADMIN_HOME} underline="never" c="martillo.7" title={t('admin.homeLink')}>
          <BrandMark />
        </Anchor>
        <Box visibleFrom="sm">
          <DevModeBadge />
        </Box>
        <Group visibleFrom="md" ml="md" miw={0}>
          <CompanyInfo me={me} />
        </Group>
      </Group>
      <Group gap="xs" wrap="nowrap">
        {/* A page load of its own: pages keep the Permissions-Policy they were loaded with, and only the Hub's allows the camera. */}
        <Button variant="light" leftSection={<BroadcastIcon size={16} />} onClick={() => window.location.assign(LIVE_HUB_PATH)} size="sm">
          {t('admin.liveHub')}
        </Button>
        <Button variant="default" leftSection={<LogoutIcon size={16} />} onClick={onSignOut} loading={isSigningOut} visibleFrom="sm">
          {t('auth.signOut')}
        </Button>
      </Group>
    </Group>
  );
}
