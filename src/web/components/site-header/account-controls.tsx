import { Anchor, Box, Button, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import type { Me } from '../../../domain/api-types.js';
import { useSignOut } from '../../api/auth';
import { displayNameOf } from '../../api/me';
import { useTranslation } from '../../i18n';
import { HOME_PATH } from '../../routes';
import { NativeDialog } from '../native-dialog';
import { Bell } from './bell';
import { MenuIcon } from './header-icons';
import { headerLinks } from './header-links';

/** The header's part for a signed-in account: its links inline from the tablet up, the bell, and the menu on a phone. */
export function AccountControls({ me }: { me: Me }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      <Group gap="md" wrap="nowrap" visibleFrom="sm" component="nav" aria-label={t('header.menu')}>
        {headerLinks(me).map((link) => (
          <Anchor key={link.key} href={link.href} size="sm" fw={600} data-testid={`header-${link.key}`}>
            {t(`header.${link.key}`)}
          </Anchor>
        ))}
      </Group>
      <Bell />
      <HeaderMenu me={me} />
    </Group>
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
