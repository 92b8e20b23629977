import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { lazy, Suspense } from 'react';
import type { Me } from '../../domain/api-types.js';
import { isApiError } from '../api/client';
import { useProfile } from '../api/profile';
import { useTranslation } from '../i18n';

// The form brings the phone-number rules (libphonenumber metadata): load it only when needed.
const ProfileForm = lazy(() => import('./profile-form').then((m) => ({ default: m.ProfileForm })));

interface ProfileModalProps {
  opened: boolean;
  onClose: () => void;
  me: Me | null;
}

/** 'Completa Tu Perfil' (SPEC §2): loads GET /api/profile each time it opens, then shows the form. */
export function ProfileModal({ opened, onClose, me }: ProfileModalProps) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery('(max-width: 48em)');

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('profile.title')}
      size="lg"
      fullScreen={isMobile}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && <ProfileModalBody me={me} onClose={onClose} />}
    </Modal>
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
