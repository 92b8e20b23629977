import { closestCenter, DndContext, type DragEndEvent, KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Button, Group, Modal, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { lotRemovalBlock } from '../../domain/live.js';
import type { LiveSessionData } from '../api/live';
import { useLotActions } from '../api/live-hub';
import { BoltIcon } from '../components/icons';
import { PlusIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { clockOffset } from '../lib/countdown';
import { ReopenPrompt, useAskReopen } from './hub-prompts';
import { HUB_WINDOW } from './hub-windows';
import { LotRowView } from './lot-row';
import { applyOrder, dragInSection, type LotRow, lotSections, moveInSection, orderedLotIds, reorderSection } from './lot-rows';
import { makeCurrentAsking } from './make-current';

interface LotsPanelProps {
  detail: LiveSessionData;
  onAddLot?: () => void;
  onQuickAuction?: () => void;
  /** Inside 'Editar Sesión': no panel frame, a smaller heading. */
  embedded?: boolean;
  /** The current lot's leader, masked, while the Hub follows its bids. */
  leaderName?: string | null;
}

/**
 * The lots of the loaded session (SPEC §2 Lots list, §4 "Lot status"): 'Próximos' (reorderable by
 * drag and by the arrow buttons) and 'Pasados / Finalizados'. Only editors see the controls.
 */
export function LotsPanel({ detail, onAddLot, onQuickAuction, embedded = false, leaderName = null }: LotsPanelProps) {
  const { t } = useTranslation();
  const sessionId = detail.session.id;
  const { remove, reorder, setCurrent, requeue } = useLotActions(sessionId);
  const [pendingOrder, setPendingOrder] = useState<string[] | null>(null);
  const [confirmRemove, setConfirmRemove] = useState<LotRow | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const reopen = useAskReopen();
  const place = embedded ? 'edit' : 'main';
  const canEdit = detail.canEdit;
  const offsetMs = clockOffset(detail.serverNow, detail.receivedAt);
  const now = Date.now() + offsetMs;
  const errorText = (error: unknown, fallback: string) => apiErrorText(error, { networkMessage: t('common.networkError'), fallback });

  const lots = useMemo(() => (pendingOrder ? applyOrder(detail.lots, pendingOrder) : detail.lots), [detail.lots, pendingOrder]);
  const { upcoming, past } = lotSections(lots, detail.session);
  const upcomingIds = upcoming.map((r) => r.lot.id);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const busy = reorder.isPending || remove.isPending || setCurrent.isPending || requeue.isPending;

  const sendOrder = (nextSection: string[] | null, movedId: string) => {
    if (!nextSection) return;
    const next = reorderSection(orderedLotIds(lots), upcomingIds, nextSection);
    if (!next) return;
    const moved = upcoming.find((r) => r.lot.id === movedId);
    setPendingOrder(next);
    if (moved) setAnnouncement(t('livehub.lots.moved', { name: moved.lot.auction.name, position: nextSection.indexOf(movedId) + 1 }));
    reorder.mutate(next, {
      onError: (error) =>
        notifications.show({ color: 'red', title: t('livehub.lots.reorderFailed'), message: errorText(error, t('livehub.lots.reorderFailed')) }),
      onSettled: () => setPendingOrder(null),
    });
  };

  const onDragEnd = (event: DragEndEvent) => {
    const activeId = String(event.active.id);
    sendOrder(dragInSection(upcomingIds, activeId, event.over ? String(event.over.id) : null), activeId);
  };

  const makeCurrent = makeCurrentAsking({
    status: detail.session.status,
    setCurrent,
    askReopen: reopen.ask,
    onFailed: (error) =>
      notifications.show({ color: 'red', title: t('livehub.lots.setCurrentFailed'), message: errorText(error, t('livehub.lots.setCurrentFailed')) }),
  });

  const removeNow = () => {
    const row = confirmRemove;
    if (!row) return;
    remove.mutate(row.lot.id, {
      onSuccess: () => setConfirmRemove(null),
      onError: (error) => {
        setConfirmRemove(null);
        notifications.show({ color: 'red', title: t('livehub.lots.removeFailed'), message: errorText(error, t('livehub.lots.removeFailed')) });
      },
    });
  };

  const baseControls = (row: LotRow) => ({
    canEdit,
    busy,
    now,
    offsetMs,
    leaderName: row.isCurrent ? leaderName : null,
    onSetCurrent: () => void makeCurrent(row),
    onRequeue: () =>
      requeue.mutate(row.lot.id, {
        onSuccess: () => setAnnouncement(t('livehub.flow.requeued', { name: row.lot.auction.name || t('livehub.picker.unnamed') })),
        onError: (error) =>
          notifications.show({ color: 'red', title: t('livehub.flow.requeueFailed'), message: errorText(error, t('livehub.flow.requeueFailed')) }),
      }),
    // A sold or running lot offers no removal (the row says why); the server refuses it too.
    onRemove: () => {
      if (!lotRemovalBlock(row.lot.auction.state, Date.now() + offsetMs, row.lot.offered)) setConfirmRemove(row);
    },
  });

  const body = (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={embedded ? 3 : 2} size={embedded ? 'h6' : 'h5'} id={`livehub-lots-title-${embedded ? 'edit' : 'main'}`}>
          {embedded ? t('livehub.edit.lots') : t('livehub.lots.title')}
        </Title>
        {canEdit && (onAddLot || onQuickAuction) && (
          <Group gap="xs">
            {onAddLot && (
              <Button size="sm" leftSection={<PlusIcon size={16} />} onClick={onAddLot}>
                {t('livehub.lots.add')}
              </Button>
            )}
            {onQuickAuction && (
              <Button size="sm" variant="light" color="oro" leftSection={<BoltIcon size={16} />} onClick={onQuickAuction}>
                {t('livehub.lots.quick')}
              </Button>
            )}
          </Group>
        )}
      </Group>
      {detail.lots.length === 0 ? (
        <Text c="dimmed" size="sm" role="status">
          {t('livehub.lots.empty')}
        </Text>
      ) : (
        <>
          <Stack gap="xs" component="section" aria-label={t('livehub.lots.upcoming')}>
            <Title order={embedded ? 4 : 3} size="h6">
              {t('livehub.lots.upcoming')}
            </Title>
            {upcoming.length === 0 ? (
              <Text c="dimmed" size="sm">
                {t('livehub.lots.noneUpcoming')}
              </Text>
            ) : canEdit ? (
              <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
                <SortableContext items={upcomingIds} strategy={verticalListSortingStrategy}>
                  <Stack component="ol" gap="xs" p={0} m={0} aria-label={t('livehub.lots.listLabel')}>
                    {upcoming.map((row, index) => (
                      <SortableLot
                        key={row.lot.id}
                        row={row}
                        controls={{
                          ...baseControls(row),
                          onMoveUp: index > 0 ? () => sendOrder(moveInSection(upcomingIds, row.lot.id, -1), row.lot.id) : null,
                          onMoveDown: index < upcoming.length - 1 ? () => sendOrder(moveInSection(upcomingIds, row.lot.id, 1), row.lot.id) : null,
                        }}
                      />
                    ))}
                  </Stack>
                </SortableContext>
              </DndContext>
            ) : (
              <Stack component="ol" gap="xs" p={0} m={0}>
                {upcoming.map((row) => (
                  <LotRowView key={row.lot.id} row={row} controls={baseControls(row)} />
                ))}
              </Stack>
            )}
          </Stack>
          <Stack gap="xs" component="section" aria-label={t('livehub.lots.past')}>
            <Title order={embedded ? 4 : 3} size="h6">
              {t('livehub.lots.past')}
            </Title>
            {past.length === 0 ? (
              <Text c="dimmed" size="sm">
                {t('livehub.lots.nonePast')}
              </Text>
            ) : (
              <Stack component="ol" gap="xs" p={0} m={0}>
                {past.map((row) => (
                  <LotRowView key={row.lot.id} row={row} controls={baseControls(row)} />
                ))}
              </Stack>
            )}
          </Stack>
        </>
      )}
      <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
      <ReopenPrompt stackId={HUB_WINDOW.lotReopen(place)} {...reopen.prompt} />
      <Modal
        stackId={HUB_WINDOW.removeLot(place)}
        opened={confirmRemove !== null}
        onClose={() => setConfirmRemove(null)}
        title={t('livehub.lots.removeTitle')}
        centered
        size="sm"
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="md">
          <Text size="sm">{t('livehub.lots.removeConfirm')}</Text>
          {confirmRemove && (
            <Text size="sm" fw={600}>
              {confirmRemove.lot.auction.name || t('livehub.picker.unnamed')}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmRemove(null)} data-autofocus>
              {t('livehub.lots.cancel')}
            </Button>
            <Button color="red" onClick={removeNow} loading={remove.isPending}>
              {t('livehub.lots.removeYes')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );

  if (embedded) return body;
  return (
    <Paper radius="lg" p="md" component="section" aria-labelledby="livehub-lots-title-main">
      {body}
    </Paper>
  );
}

function SortableLot({ row, controls }: { row: LotRow; controls: Parameters<typeof LotRowView>[0]['controls'] }) {
  const sortable = useSortable({ id: row.lot.id });
  return (
    <LotRowView
      row={row}
      controls={{
        ...controls,
        drag: {
          setNodeRef: sortable.setNodeRef,
          setHandleRef: sortable.setActivatorNodeRef,
          attributes: sortable.attributes,
          listeners: sortable.listeners,
          style: { transform: CSS.Transform.toString(sortable.transform), transition: sortable.transition },
          isDragging: sortable.isDragging,
        },
      }}
    />
  );
}
