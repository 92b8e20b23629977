import { Alert, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { LockIcon } from '../panel-icons';

/** A field's description when bids hold it: the lock and the reason, in words. */
export function LockedNote({ children }: { children: ReactNode }) {
  return (
    <Group component="span" gap={4} wrap="nowrap" align="flex-start" data-locked-note="">
      <LockIcon size={14} style={{ flex: 'none', marginTop: 1 }} />
      <span>{children}</span>
    </Group>
  );
}

/** Above the form of an auction with bids: what is locked and what may still change, before anyone presses Save. */
export function LockBanner() {
  const { t } = useTranslation();
  return (
    <Alert color="orange" variant="light" icon={<LockIcon size={20} />} title={t('auctionForm.locked.title')} data-testid="locked-banner">
      <Text size="sm">{t('auctionForm.locked.banner')}</Text>
    </Alert>
  );
}
