import { Alert, Button, Center, Paper } from '@mantine/core';
import { isApiError, NETWORK_ERROR_STATUS } from '../api/client';
import { useTranslation } from '../i18n';

/** Shown when the session itself cannot be read (server down, offline): say so and offer a retry. */
export function ErrorScreen({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const isNetwork = isApiError(error) && error.status === NETWORK_ERROR_STATUS;
  return (
    <Center mih="100dvh" p="md">
      <Paper withBorder shadow="sm" p="xl" maw={480} w="100%">
        <Alert color="red" variant="light" title={isNetwork ? t('common.networkError') : t('common.genericError')}>
          <Button mt="sm" variant="light" color="red" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </Alert>
      </Paper>
    </Center>
  );
}
