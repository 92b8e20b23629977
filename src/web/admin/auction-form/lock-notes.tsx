import { Alert, Group, Text } from '@mantine/core';
import type { ReactNode, SVGProps } from 'react';
import { useTranslation } from 'react-i18next';

/** A padlock (decorative: the text beside it says why). */
export function LockIcon({ size = 16, ...rest }: SVGProps<SVGSVGElement> & { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </svg>
  );
}

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
