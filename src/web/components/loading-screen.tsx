import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from '../i18n';

/** Full-page 'Cargando...' while the session (or a lazy screen) resolves. */
export function LoadingScreen({ inverted = false }: { inverted?: boolean }) {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader aria-hidden="true" color={inverted ? 'white' : undefined} />
        <Text c={inverted ? 'white' : 'dimmed'}>{t('common.loading')}</Text>
      </Stack>
    </Center>
  );
}
