import { Anchor, Box, Button, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import type { Me } from '../../../domain/api-types.js';
import { signInUrl, useSignOut } from '../../api/auth';
import { displayNameOf, useMe } from '../../api/me';
import { useTranslation } from '../../i18n';
import { HOME_PATH } from '../../routes';
import { BrandMark } from '../brand-mark';
import { NativeDialog } from '../native-dialog';
import { Bell } from './bell';
import { MenuIcon } from './header-icons';
import { headerLinks } from './header-links';
import { SearchForm } from './search-form';

/**
 * The buyers' header on every public page: the brand (home), the search box (the home and the
 * search page have their own, `search={false}`), and for a signed-in account the bell and its links
 * (a compact menu on a phone, inline from the tablet up); *Iniciar sesión* while signed out.
 */
export function SiteHeader({ search = true }: { search?: boolean }) {
  const { t } = useTranslation();
  const me = useMe();
  const here = typeof window === 'undefined' ? HOME_PATH : `${window.location.pathname}${window.location.search}`;
  return (
    <Box component="header" bg="white" px="md" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
      <Stack gap="sm" maw={960} mx="auto">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Anchor href={HOME_PATH} underline="never" aria-label={t('header.home')} data-testid="header-home">
            <BrandMark size="lg" />
          </Anchor>
          {me.data ? (
            <Group gap={4} wrap="nowrap">
              <Group gap="md" wrap="nowrap" visibleFrom="sm" component="nav" aria-label={t('header.menu')}>
                {headerLinks(me.data).map((link) => (
                  <Anchor key={link.key} href={link.href} size="sm" fw={600} data-testid={`header-${link.key}`}>
                    {t(`header.${link.key}`)}
                  </Anchor>
                ))}
              </Group>
              <Bell />
              <HeaderMenu me={me.data} />
            </Group>
          ) : me.isPending ? null : (
            <Button component="a" href={signInUrl(here)} size="compact-md" variant="light" data-testid="header-sign-in">
              {t('header.signIn')}
            </Button>
          )}
        </Group>
        {search && <SearchForm label={t('header.searchLabel')} placeholder={t('header.searchPlaceholder')} size="sm" />}
      </Stack>
    </Box>
  );
}

/** On a phone: the header's links in a bottom sheet, with the account's name and *Cerrar sesión*. */
function HeaderMenu({ me }: { me: Me }) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const { signOut, isSigningOut } = useSignOut();
  return (
    <Box hiddenFrom="sm">
      <UnstyledButton
        aria-label={t('header.menu')}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        p={6}
        style={{ display: 'flex', borderRadius: 'var(--mantine-radius-xl)' }}
        data-testid="header-menu"
      >
        <MenuIcon size={24} />
      </UnstyledButton>
      {isOpen && (
        <NativeDialog title={t('header.signedInAs', { name: displayNameOf(me) })} size="sheet" closable onClose={() => setOpen(false)}>
          <Stack component="nav" aria-label={t('header.menu')} gap={0}>
            {headerLinks(me).map((link) => (
              <Anchor
                key={link.key}
                href={link.href}
                fw={600}
                py="sm"
                c="dark.8"
                style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                data-testid={`menu-${link.key}`}
              >
                {t(`header.${link.key}`)}
              </Anchor>
            ))}
            <Text component="div" pt="md">
              <Button
                variant="subtle"
                color="gray"
                px={0}
                loading={isSigningOut}
                onClick={() => {
                  void signOut().then(() => window.location.assign(HOME_PATH));
                }}
              >
                {t('header.signOut')}
              </Button>
            </Text>
          </Stack>
        </NativeDialog>
      )}
    </Box>
  );
}
