import { Alert, Text } from '@mantine/core';
import { useTranslation } from '../../i18n';
import type { Broadcast } from './use-broadcast';

interface BroadcastAlertsProps {
  broadcast: Broadcast;
  isDisabled: boolean;
  isOrphaned: boolean;
  canEdit: boolean;
  /** The phone draws them filled and tight, over the camera; the wide Hub light, in its panel. */
  overVideo?: boolean;
}

/** The broadcast's messages: video off for this site, the last error, and a broadcast the server still has open. */
export function BroadcastAlerts({ broadcast, isDisabled, isOrphaned, canEdit, overVideo }: BroadcastAlertsProps) {
  const { t } = useTranslation();
  const look = overVideo ? ({ variant: 'filled', p: 'xs' } as const) : ({ variant: 'light' } as const);
  const text = (key: 'livehub.broadcast.disabled' | 'livehub.broadcast.orphaned') => (overVideo ? <Text size="sm">{t(key)}</Text> : t(key));
  return (
    <>
      {isDisabled && (
        <Alert color="yellow" {...look} data-testid="broadcast-disabled">
          {text('livehub.broadcast.disabled')}
        </Alert>
      )}
      {broadcast.error && (
        <Alert
          color="red"
          {...look}
          role="alert"
          title={broadcast.error.title}
          withCloseButton
          onClose={broadcast.dismissError}
          closeButtonLabel={t('common.close')}
          data-testid="broadcast-error"
        >
          {broadcast.error.detail}
        </Alert>
      )}
      {isOrphaned && canEdit && (
        <Alert color="orange" {...look} data-testid="broadcast-orphaned">
          {text('livehub.broadcast.orphaned')}
        </Alert>
      )}
    </>
  );
}
