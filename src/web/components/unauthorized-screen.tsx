import { Alert, Button, Center, Divider, Paper, Stack, Text, Title } from '@mantine/core';
import type { Me } from '../../domain/api-types.js';
import { canUsePanel } from '../../domain/role-rules.js';
import { HOME_PATH, SELL_PATH } from '../../domain/screens.js';
import { startSignIn, useSignOut } from '../api/auth';
import { displayNameOf } from '../api/me';
import { useTranslation } from '../i18n';
import { DevModeBadge } from './dev-mode-badge';
import { GavelIcon } from './icons';
import { GoogleIcon, LogoutIcon } from './panel-icons';
import { SiteFooter } from './site-footer';

/**
 * SPEC §2: signed out, or signed in without the admin or seller role. A signed-in buyer also sees
 * why (the panel is for sellers), *Quiero vender* to ask for it, the way home, who they are, and
 * can sign out to switch accounts.
 */
export function UnauthorizedScreen({ me, inverted = false }: { me: Me | null; inverted?: boolean }) {
  const { t } = useTranslation();
  const { signOut, isSigningOut, error } = useSignOut();
  const mayApply = me !== null && !canUsePanel(me.roles);

  return (
    <Stack mih="100dvh" justify="space-between" gap={0}>
      <Center component="main" flex={1} p="md">
        <Paper withBorder shadow="md" p="xl" radius="lg" maw={460} w="100%">
          <Stack gap="md">
            <Center c="martillo.7">
              <GavelIcon size={40} />
            </Center>
            <Title order={1} size="h3" ta="center">
              {t('auth.loginHeading')}
            </Title>
            <Stack gap={4} ta="center">
              <Title order={2} size="h4" c="red">
                {t('auth.unauthorizedTitle')}
              </Title>
              <Text>{t('auth.unauthorizedMessage')}</Text>
            </Stack>
            {mayApply ? (
              <Stack gap="xs" data-testid="want-to-sell">
                <Title order={2} size="h5">
                  {t('auth.noSellerTitle')}
                </Title>
                <Text size="sm">{t('auth.noSellerMessage')}</Text>
                <Button component="a" href={SELL_PATH} size="md" fullWidth>
                  {t('auth.wantToSell')}
                </Button>
                <Button component="a" href={HOME_PATH} size="md" variant="default" fullWidth>
                  {t('auth.goHome')}
                </Button>
              </Stack>
            ) : (
              <Button size="md" variant="default" leftSection={<GoogleIcon />} onClick={startSignIn} fullWidth>
                {t('auth.signInWithGoogle')}
              </Button>
            )}
            <Center>
              <DevModeBadge />
            </Center>
            {me && (
              <>
                <Divider />
                <Text size="sm">{t('auth.signedInAs', { name: displayNameOf(me), email: me.user.email })}</Text>
                <Text size="sm" c="dimmed">
                  {t('auth.switchAccountHint')}
                </Text>
                {Boolean(error) && (
                  <Alert color="red" variant="light" role="alert">
                    {t('auth.signOutFailed')}
                  </Alert>
                )}
                <Button variant="light" leftSection={<LogoutIcon />} loading={isSigningOut} onClick={signOut}>
                  {t('auth.signOut')}
                </Button>
              </>
            )}
          </Stack>
        </Paper>
      </Center>
      <SiteFooter inverted={inverted} />
    </Stack>
  );
}
