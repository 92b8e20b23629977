import { Anchor, Box, Button, Group, Stack } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { signInUrl } from '../../api/auth';
import { useMe } from '../../api/me';
import { useTranslation } from '../../i18n';
import { HOME_PATH } from '../../routes';
import { BrandMark } from '../brand-mark';
import { SearchForm } from './search-form';

// A signed-in account's part (the bell, its links, the menu) loads only for one: a first visit,
// signed out, does not download it (the public pages' weight budget, bench/weight.ts).
const AccountControls = lazy(() => import('./account-controls').then((m) => ({ default: m.AccountControls })));

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
            <Suspense fallback={null}>
              <AccountControls me={me.data} />
            </Suspense>
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
