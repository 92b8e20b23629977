import { Badge } from '@mantine/core';
import type { AuctionStatus } from '../../domain/auctions.js';
import { useTranslation } from '../i18n';

const STATUS_COLORS: Record<AuctionStatus, string> = { active: 'green', live: 'oro', pending: 'gray', ended: 'dark' };

/** SPEC §2: the active status is green and bold; the others stay quieter. Shared by the panel and the public page. */
export function AuctionStatusBadge({ status, size }: { status: AuctionStatus; size?: 'sm' | 'md' | 'lg' }) {
  const { t } = useTranslation();
  const isActive = status === 'active';
  const variant = isActive ? 'light' : status === 'live' ? 'filled' : 'outline';
  return (
    <Badge color={STATUS_COLORS[status]} variant={variant} size={size} autoContrast tt="none" fw={isActive ? 700 : 500} miw="max-content" data-status={status}>
      {t(`auctions.status.${status}`)}
    </Badge>
  );
}
