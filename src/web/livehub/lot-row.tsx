import type { DraggableAttributes, DraggableSyntheticListeners } from '@dnd-kit/core';
import { ActionIcon, Badge, Box, Button, Center, Group, Image, Stack, Text } from '@mantine/core';
import type { CSSProperties, Ref } from 'react';
import { useId } from 'react';
import { lotRemovalBlock } from '../../domain/live.js';
import { formatMoney } from '../../domain/money.js';
import { PhotoIcon } from '../components/icons';
import { ArrowDownIcon, ArrowUpIcon, GripIcon, TrashIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { CurrentLotLive } from './current-lot-live';
import { LotFormatMenu } from './lot-format-menu';
import type { LotRow, LotRowStatus } from './lot-rows';
import { type ClockPhase, clockPhase } from './timer-view';

const STATUS_COLORS: Record<LotRowStatus, string> = {
  live: 'red',
  active: 'green',
  pending: 'gray',
  sold: 'teal',
  unsold: 'dark',
  soldOutside: 'grape',
  endedOutside: 'dark',
  passed: 'dark',
  finished: 'dark',
};

/** The current lot's highlight says what is true of it now (SPEC's 'En subasta ahora' only while it runs). */
const PHASE_LOOK: Record<ClockPhase, { color: string; variant: 'filled' | 'light'; border: string; background: string }> = {
  running: { color: 'red', variant: 'filled', border: 'var(--mantine-color-red-6)', background: 'var(--mantine-color-red-0)' },
  ready: { color: 'blue', variant: 'light', border: 'var(--mantine-color-blue-5)', background: 'var(--mantine-color-blue-0)' },
  closing: { color: 'orange', variant: 'light', border: 'var(--mantine-color-orange-5)', background: 'var(--mantine-color-orange-0)' },
  sold: { color: 'teal', variant: 'filled', border: 'var(--mantine-color-teal-6)', background: 'var(--mantine-color-teal-0)' },
  unsold: { color: 'gray', variant: 'light', border: 'var(--mantine-color-gray-5)', background: 'var(--mantine-color-gray-0)' },
};

export interface LotRowControls {
  canEdit: boolean;
  busy: boolean;
  /** The server's clock at this render (whether a lot still runs decides if it may be removed). */
  now: number;
  /** Server time minus device time, for the current lot's ticking countdown. */
  offsetMs: number;
  /** The current lot's leader, masked, from its bid history ('Ju***'). */
  leaderName: string | null;
  onSetCurrent: () => void;
  onRemove: () => void;
  /** 'Volver a subastar': shown on an unsold lot's row when present. */
  onRequeue?: (() => void) | null;
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
  const reasonId = useId();
  const { lot, isCurrent } = row;
  const name = lot.auction.name || t('livehub.picker.unnamed');
  const { canEdit, busy, drag } = controls;
  const state = lot.auction.state;
  const phase = isCurrent ? clockPhase(state, controls.now) : null;
  const look = phase ? PHASE_LOOK[phase] : null;
  // A sold lot carries the show's result and a running one has bidders: neither leaves the session.
  const removalBlock = lotRemovalBlock(state, controls.now, lot.offered);

  return (
    <Box
      component="li"
      ref={drag?.setNodeRef}
      aria-labelledby={nameId}
      data-current={isCurrent || undefined}
      data-phase={phase ?? undefined}
      data-lot-id={lot.id}
      p="xs"
      style={{
        listStyle: 'none',
        borderRadius: 12,
        border: look ? `2px solid ${look.border}` : '1px solid var(--mantine-color-gray-3)',
        background: look ? look.background : 'var(--mantine-color-body)',
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
            {phase && look ? (
              <Badge color={look.color} variant={look.variant} size="sm" tt="none" data-testid="current-lot-phase">
                {phase === 'running' ? t('livehub.lots.current') : t(`livehub.lots.phase.${phase}`)}
              </Badge>
            ) : (
              <Badge color={STATUS_COLORS[row.status]} variant="light" size="sm" tt="none" data-status={row.status}>
                {t(`livehub.lots.rowStatus.${row.status}`)}
              </Badge>
            )}
          </Group>
          <Text id={nameId} fw={600} size="sm" lineClamp={1}>
            {name}
          </Text>
          {/* The lot's own timer format, while it can still run (lot-format-menu.tsx). */}
          {canEdit && state.status !== 'ended' && lot.status !== 'finished' && (
            <Group gap={4}>
              <LotFormatMenu lot={lot} name={name} disabled={busy} />
            </Group>
          )}
          {phase ? (
            <CurrentLotLive state={state} phase={phase} leaderName={controls.leaderName} offsetMs={controls.offsetMs} />
          ) : (
            <Text size="xs" c="dimmed">
              {row.hasBid ? t('livehub.lots.currentPrice') : t('livehub.lots.startingPrice')}:{' '}
              <Text span fw={600} c="var(--mantine-color-text)">
                {formatMoney(row.price)}
              </Text>
              {state.bidCount > 0 ? ` · ${t('livehub.lots.bids', { count: state.bidCount })}` : ''}
            </Text>
          )}
          {lot.prebidCount > 0 && (
            <Text size="xs" c="dimmed" data-testid="prebid-count">
              {t('prebids.hubCount', { count: lot.prebidCount })}
            </Text>
          )}
          {canEdit && removalBlock && (
            <Text size="xs" c="dimmed" id={reasonId} data-testid="remove-blocked">
              {t(`livehub.lots.removeBlocked.${removalBlock}`)}
            </Text>
          )}
        </Stack>
        {canEdit && (
          <Group gap={4} wrap="nowrap" ml="auto" style={{ flex: 'none' }}>
            {isCurrent ? (
              <Button size="compact-sm" color="red" variant="filled" disabled aria-current="true">
                {t('livehub.lots.currentButton')}
              </Button>
            ) : state.status === 'ended' && state.bidCount > 0 ? null /* sold: it cannot run again; an unsold lot can (re-run) */ : (
              <Button
                size="compact-sm"
                variant="light"
                onClick={controls.onSetCurrent}
                disabled={busy}
                aria-label={t('livehub.lots.setCurrentLabel', { name })}
              >
                {t('livehub.lots.setCurrent')}
              </Button>
            )}
            {controls.onRequeue && (row.status === 'unsold' || row.status === 'endedOutside') && (
              <Button
                size="compact-sm"
                variant="light"
                color="orange"
                onClick={() => controls.onRequeue?.()}
                disabled={busy}
                aria-label={t('livehub.flow.requeueLabel', { name })}
                data-testid="requeue-lot"
              >
                {t('livehub.flow.requeue')}
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
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('livehub.lots.removeLabel', { name })}
              aria-describedby={removalBlock ? reasonId : undefined}
              onClick={controls.onRemove}
              disabled={busy || removalBlock !== null}
            >
              <TrashIcon size={16} />
            </ActionIcon>
          </Group>
        )}
      </Group>
    </Box>
  );
}
