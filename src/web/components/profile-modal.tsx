import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { Me } from '../../domain/api-types.js';
import { isApiError } from '../api/client';
import { useProfile } from '../api/profile';
import { useTranslation } from '../i18n';
import { NativeDialog } from './native-dialog';

// The form brings the phone-number rules (libphonenumber metadata): load it only when needed.
const ProfileForm = lazy(() => import('./profile-form').then((m) => ({ default: m.ProfileForm })));

interface ProfileModalProps {
  opened: boolean;
  onClose: () => void;
  me: Me | null;
}

/**
 * 'Completa Tu Perfil' (SPEC §2): loads GET /api/profile each time it opens, then shows the form.
 * The browser's own dialog, as the bid review's: it opens from the public pages too, which are kept light.
 */
export function ProfileModal({ opened, onClose, me }: ProfileModalProps) {
  const { t } = useTranslation();
  if (!opened) return null;
  return (
    <NativeDialog title={t('profile.title')} onClose={onClose} closable size="lg">
      <ProfileModalBody me={me} onClose={onClose} />
    </NativeDialog>
  );
}

function ProfileModalBody({ me, onClose }: { me: Me | null; onClose: () => void }) {
  const { t } = useTranslation();
  const profile = useProfile(me !== null);

  if (!me || (isApiError(profile.error) && profile.error.status === 401)) {
    return (
      <Alert color="red" variant="light" role="alert">
        {t('profile.noUser')}
      </Alert>
    );
  }
  if (profile.isError && !profile.isFetching) {
    return (
      <Stack>
        <Alert color="red" variant="light" role="alert">
          {t('profile.loadFailed')}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('profile.cancel')}
          </Button>
          <Button onClick={() => void profile.refetch()}>{t('common.retry')}</Button>
        </Group>
      </Stack>
    );
  }
  // Seed the form only from an answer fetched for this opening, never from an older cache entry.
  const isRetrying = profile.isFetching && profile.isError;
  if (profile.isPending || !profile.isFetchedAfterMount || isRetrying || !profile.data) return <ProfileLoading />;
  return (
    <Suspense fallback={<ProfileLoading />}>
      <ProfileForm me={me} profile={profile.data} onClose={onClose} />
    </Suspense>
  );
}

function ProfileLoading() {
  const { t } = useTranslation();
  return (
    <Group gap="sm" py="lg" justify="center" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden="true" />
      <Text>{t('profile.loading')}</Text>
    </Group>
  );
}
