import { Alert, Anchor, Button, Card, Stack, Text, Title } from '@mantine/core';
import { startSignIn } from '../api/auth';
import { useTranslation } from '../i18n';
import { AlertIcon } from './icons';

/**
 * The states a buyer's page shares with the others: signed out (the Google sign-in the bid panel
 * offers, back to this page afterwards) and a load that failed, with *Reintentar*. Each page says
 * its own words.
 */

export function SignInCard({ title, text, action, testId }: { title: string; text: string; action: string; testId: string }) {
  return (
    <Card withBorder radius="lg" padding="lg" data-testid={testId}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text size="sm">{text}</Text>
        <Button size="lg" fullWidth onClick={startSignIn}>
          {action}
        </Button>
      </Stack>
    </Card>
  );
}

export function LoadFailed({ title, onRetry, isRetrying = false }: { title: string; onRetry: () => void; isRetrying?: boolean }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" icon={<AlertIcon />} title={title} role="alert">
      <Anchor component="button" type="button" onClick={onRetry} disabled={isRetrying}>
        {t('common.retry')}
      </Anchor>
    </Alert>
  );
}
