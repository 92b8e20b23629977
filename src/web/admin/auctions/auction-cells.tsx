import { ActionIcon, Button, Center, Group, Image, Stack, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { deleteBlock } from '../../../domain/auction-list.js';
import type { AuctionListItem } from '../../../domain/auctions.js';
import { formatMoney } from '../../../domain/money.js';
import { EyeIcon, PhotoIcon } from '../../components/icons';
import { PencilIcon, TrashIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import { formatDate, TIME_FORMAT } from '../../lib/dates';

const THUMB_SIZE = 48;
/** Short enough for a table cell: '22 nov 2026' and '18:05', in Mexico City time. */
const END_DATE_FORMAT = 'D MMM YYYY';

export function AuctionThumbnail({ url, size = THUMB_SIZE }: { url: string | null; size?: number }) {
  const { t } = useTranslation();
  const [isBroken, setIsBroken] = useState(false);
  if (!url || isBroken) {
    return (
      <Center
        w={size}
        h={size}
        bg="gray.1"
        c="gray.5"
        style={{ borderRadius: 'var(--mantine-radius-sm)', flexShrink: 0 }}
        role="img"
        aria-label={t('auctions.table.noImage')}
      >
        <PhotoIcon size={20} />
      </Center>
    );
  }
  // The name sits right beside it, so the picture itself is decorative.
  return (
    <Image
      src={url}
      alt=""
      w={size}
      h={size}
      width={size}
      height={size}
      radius="sm"
      fit="cover"
      loading="lazy"
      decoding="async"
      onError={() => setIsBroken(true)}
      style={{ flexShrink: 0 }}
    />
  );
}

export function AuctionEndDate({ endTime }: { endTime: number | null }) {
  if (endTime === null) return <Text size="sm">—</Text>;
  // Date and time each stay whole; a narrow column breaks between them.
  return (
    <Text size="sm" component="time" dateTime={new Date(endTime).toISOString()}>
      <span style={{ whiteSpace: 'nowrap' }}>{formatDate(endTime, END_DATE_FORMAT)},</span>{' '}
      <span style={{ whiteSpace: 'nowrap' }}>{formatDate(endTime, TIME_FORMAT)}</span>
    </Text>
  );
}

/**
 * The starting price (SPEC's Price column), with the live bid underneath when there is one. Under
 * 'Pendientes' and 'Pagadas' every row is sold: the column is 'Precio final' and leads with it.
 */
export function AuctionPrice({ item, isFinal = false }: { item: AuctionListItem; isFinal?: boolean }) {
  const { t } = useTranslation();
  if (isFinal) {
    return (
      <Stack gap={0}>
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="final-price">
          {formatMoney(item.currentPrice ?? item.startingPrice)}
        </Text>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {t('auctions.table.startingPrice', { price: formatMoney(item.startingPrice) })}
        </Text>
        {item.bidCount > 0 && (
          <Text size="xs" c="dimmed">
            {t('auctions.table.bids', { count: item.bidCount })}
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <Stack gap={0}>
      <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
        {formatMoney(item.startingPrice)}
      </Text>
      {item.bidCount > 0 && item.currentPrice !== null && (
        <Text size="xs" c="dimmed">
          {t('auctions.table.currentPrice', { price: formatMoney(item.currentPrice) })}
        </Text>
      )}
      {item.bidCount > 0 && (
        <Text size="xs" c="dimmed">
          {t('auctions.table.bids', { count: item.bidCount })}
        </Text>
      )}
    </Stack>
  );
}

export function AuctionName({ item }: { item: AuctionListItem }) {
  const { t } = useTranslation();
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600} lineClamp={2} data-testid="auction-name">
        {item.name}
      </Text>
      {/* Whole, however long: the seller bills this person. */}
      {item.currentWinnerName && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="auction-winner">
          {t('auctions.table.winner', { name: item.currentWinnerName })}
        </Text>
      )}
    </Stack>
  );
}

export interface RowActionProps {
  item: AuctionListItem;
  onEdit: (auctionId: string) => void;
  onDelete: (item: AuctionListItem) => void;
  isDeleting: boolean;
}

export const auctionHref = (id: string) => `/auctions/${encodeURIComponent(id)}`;

/** View (new tab), edit and delete, as icon buttons with a tooltip and a spoken label. */
export function AuctionRowActions({ item, onEdit, onDelete, isDeleting }: RowActionProps) {
  const { t } = useTranslation();
  const blocked = useDeleteBlockedText(item);
  return (
    <Group gap={4} wrap="nowrap" role="group" aria-label={t('auctions.actions.group', { name: item.name })}>
      <Tooltip label={t('auctions.actions.view')} withinPortal>
        <ActionIcon
          component="a"
          href={auctionHref(item.id)}
          target="_blank"
          rel="noopener noreferrer"
          variant="subtle"
          color="gray"
          aria-label={t('auctions.actions.view')}
        >
          <EyeIcon />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('auctions.actions.edit')} withinPortal>
        <ActionIcon variant="subtle" color="gray" onClick={() => onEdit(item.id)} aria-label={t('auctions.actions.edit')}>
          <PencilIcon />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={blocked ?? t('auctions.actions.delete')} withinPortal multiline={blocked !== null} w={blocked ? 260 : undefined}>
        {/* data-disabled, not disabled: a disabled button gets no hover or focus, so its tooltip would never say why. */}
        <ActionIcon
          variant="subtle"
          color="red"
          onClick={() => (blocked ? undefined : onDelete(item))}
          loading={isDeleting}
          aria-label={t('auctions.actions.delete')}
          {...disabledProps(blocked)}
        >
          <TrashIcon />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** The same three actions as full-size buttons with words, for thumbs on a phone. */
export function AuctionCardActions({ item, onEdit, onDelete, isDeleting }: RowActionProps) {
  const { t } = useTranslation();
  const blocked = useDeleteBlockedText(item);
  return (
    <Stack gap={4}>
      <Group gap="xs" grow role="group" aria-label={t('auctions.actions.group', { name: item.name })}>
        <Button component="a" href={auctionHref(item.id)} target="_blank" rel="noopener noreferrer" variant="default" size="sm" px="xs">
          {t('auctions.actions.view')}
        </Button>
        <Button variant="default" size="sm" px="xs" onClick={() => onEdit(item.id)}>
          {t('auctions.actions.edit')}
        </Button>
        <Button
          variant="light"
          color="red"
          size="sm"
          px="xs"
          onClick={() => (blocked ? undefined : onDelete(item))}
          loading={isDeleting}
          {...disabledProps(blocked)}
        >
          {t('auctions.actions.delete')}
        </Button>
      </Group>
      {/* No hover on a phone: the reason is written under the buttons. */}
      {blocked && (
        <Text size="xs" c="dimmed">
          {blocked}
        </Text>
      )}
    </Stack>
  );
}

/** Why this auction cannot be deleted, in words, or null (deleteBlock: bids, a payment or a live session hold it). */
function useDeleteBlockedText(item: AuctionListItem): string | null {
  const { t } = useTranslation();
  const block = deleteBlock(item);
  return block ? t(`auctions.deleteBlocked.${block}`) : null;
}

/** Looks and reads as disabled, yet still takes hover and focus so the reason can be shown. */
function disabledProps(blocked: string | null) {
  return blocked ? { 'data-disabled': true, 'aria-disabled': true, 'aria-description': blocked } : {};
}
