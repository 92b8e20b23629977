import type { DraggableAttributes, DraggableSyntheticListeners } from '@dnd-kit/core';
import { ActionIcon, Badge, Box, Button, Center, Group, Image, Stack, Text } from '@mantine/core';
import type { CSSProperties, Ref } from 'react';
import { useId } from 'react';
import { formatMoney } from '../../domain/money.js';
import { PhotoIcon } from '../components/icons';
import { ArrowDownIcon, ArrowUpIcon, GripIcon, TrashIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import type { LotRow, LotRowStatus } from './lot-rows';

const STATUS_COLORS: Record<LotRowStatus, string> = {
  live: 'red',
  active: 'green',
  pending: 'gray',
  sold: 'teal',
  unsold: 'dark',
  passed: 'dark',
  finished: 'dark',
};

export interface LotRowControls {
  canEdit: boolean;
  busy: boolean;
  onSetCurrent: () => void;
  onRemove: () => void;
  /** Present in a reorderable section. */
  onMoveUp?: (() => void) | null;
  onMoveDown?: (() => void) | null;
  drag?: {
    setNodeRef: Ref<HTMLLIElement>;
    setHandleRef: Ref<HTMLButtonElement>;
    attributes: DraggableAttributes;
    listeners: DraggableSyntheticListeners;
    style: CSSProperties;
    isDragging: boolean;
  };
}

/** One lot (SPEC §2 Lots list): photo, name, price, status; the current lot highlighted. */
export function LotRowView({ row, controls }: { row: LotRow; controls: LotRowControls }) {
  const { t } = useTranslation();
  const nameId = useId();
  const { lot, isCurrent } = row;
  const name = lot.auction.name || t('livehub.picker.unnamed');
  const { canEdit, busy, drag } = controls;

  return (
    <Box
      component="li"
      ref={drag?.setNodeRef}
      aria-labelledby={nameId}
      data-current={isCurrent || undefined}
      data-lot-id={lot.id}
      p="xs"
      style={{
        listStyle: 'none',
        borderRadius: 12,
        border: isCurrent ? '2px solid var(--mantine-color-red-6)' : '1px solid var(--mantine-color-gray-3)',
        background: isCurrent ? 'var(--mantine-color-red-0)' : 'var(--mantine-color-body)',
        opacity: drag?.isDragging ? 0.6 : 1,
        ...drag?.style,
      }}
    >
      <Group gap="sm" wrap="wrap" align="center">
        {drag && canEdit && (
          <ActionIcon
            ref={drag.setHandleRef}
            variant="subtle"
            color="gray"
            aria-label={t('livehub.lots.drag', { name })}
            style={{ cursor: 'grab', touchAction: 'none' }}
            {...drag.attributes}
            {...drag.listeners}
          >
            <GripIcon size={16} />
          </ActionIcon>
        )}
        {lot.auction.thumbnailUrl ? (
          <Image src={lot.auction.thumbnailUrl} alt="" w={56} h={56} radius="md" fit="cover" style={{ flex: 'none' }} />
        ) : (
          <Center w={56} h={56} bg="gray.1" c="gray.5" style={{ borderRadius: 8, flex: 'none' }} role="img" aria-label={t('livehub.lots.noPhoto')}>
            <PhotoIcon size={22} />
          </Center>
        )}
        <Stack gap={2} miw={0} style={{ flex: '1 1 140px' }}>
          <Group gap={6} wrap="wrap">
            <Text size="xs" c="dimmed">
              {t('livehub.lots.order', { order: lot.order })}
            </Text>
            {isCurrent && (
              <Badge color="red" variant="filled" size="sm" tt="none">
                {t('livehub.lots.current')}
              </Badge>
            )}
            <Badge color={STATUS_COLORS[row.status]} variant="light" size="sm" tt="none" data-status={row.status}>
              {t(`livehub.lots.rowStatus.${row.status}`)}
            </Badge>
          </Group>
          <Text id={nameId} fw={600} size="sm" lineClamp={1}>
            {name}
          </Text>
          <Text size="xs" c="dimmed">
            {row.hasBid ? t('livehub.lots.currentPrice') : t('livehub.lots.startingPrice')}:{' '}
            <Text span fw={600} c="var(--mantine-color-text)">
              {formatMoney(row.price)}
            </Text>
            {lot.auction.state.bidCount > 0 ? ` · ${t('livehub.lots.bids', { count: lot.auction.state.bidCount })}` : ''}
          </Text>
        </Stack>
        {canEdit && (
          <Group gap={4} wrap="nowrap" ml="auto" style={{ flex: 'none' }}>
            {isCurrent ? (
              <Button size="compact-sm" color="red" variant="filled" disabled aria-current="true">
                {t('livehub.lots.currentButton')}
              </Button>
            ) : lot.auction.state.status === 'ended' && lot.auction.state.bidCount > 0 ? null /* sold: it cannot run again; an unsold lot can (re-run) */ : (
              <Button size="compact-sm" variant="light" onClick={controls.onSetCurrent} disabled={busy}>
                {t('livehub.lots.setCurrent')}
              </Button>
            )}
            {controls.onMoveUp !== undefined && (
              <>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('livehub.lots.moveUp', { name })}
                  onClick={() => controls.onMoveUp?.()}
                  disabled={busy || !controls.onMoveUp}
                >
                  <ArrowUpIcon size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('livehub.lots.moveDown', { name })}
                  onClick={() => controls.onMoveDown?.()}
                  disabled={busy || !controls.onMoveDown}
                >
                  <ArrowDownIcon size={16} />
                </ActionIcon>
              </>
            )}
            <ActionIcon variant="subtle" color="red" aria-label={t('livehub.lots.removeLabel', { name })} onClick={controls.onRemove} disabled={busy}>
              <TrashIcon size={16} />
            </ActionIcon>
          </Group>
        )}
      </Group>
    </Box>
  );
}
