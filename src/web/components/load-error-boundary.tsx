import { Alert, Button, Stack, Text } from '@mantine/core';
import { Component, type ReactNode } from 'react';
import { useTranslation } from '../i18n';
import { AlertIcon } from './icons';

interface BoundaryProps {
  /** What to show instead of the children once they failed; `retry` renders them again. */
  fallback: (retry: () => void) => ReactNode;
  children: ReactNode;
}

/**
 * Code loaded on demand (a screen, a dialog) can fail to arrive: the network dropped, or a deploy
 * replaced the file. React then throws from the lazy component, and without a boundary the whole
 * page goes blank. This one shows `fallback` instead, and `retry` renders the children again.
 */
export class LoadErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  retry = () => this.setState({ failed: false });

  override render() {
    return this.state.failed ? this.props.fallback(this.retry) : this.props.children;
  }
}

/** The fallback's words: what did not load, and 'Reintentar'. */
export function LoadFailed({ message, onRetry, fixed = false }: { message: string; onRetry: () => void; fixed?: boolean }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="red"
      variant="light"
      icon={<AlertIcon />}
      role="alert"
      style={fixed ? { position: 'fixed', left: 12, right: 12, bottom: 12, zIndex: 300 } : undefined}
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
