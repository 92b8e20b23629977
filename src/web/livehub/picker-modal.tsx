import { Alert, Button, Group, Loader, Modal, ScrollArea, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { type PickerItem, pickerKind } from '../../domain/live.js';
import { useLotActions, usePicker } from '../api/live-hub';
import { SearchIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { PHONE_HUB_QUERY } from './hub-layout';
import { HUB_WINDOW } from './hub-windows';
import { WindowAutoAdvance } from './phone/phone-sheet';
import { PHONE_TARGET_PX, PickerRow } from './picker-row';

/**
 * 'Añadir Lote' (SPEC §5 "Auction picker search"): the default list under 2 characters, a name
 * (or id) search otherwise, 300 ms after the last key. The modal stays open to add several lots.
 * The seller's pending auctions come first (the server's order), apart from those already running
 * online on their own end time; adding one that runs with bids asks first (picker-row.tsx). On a
 * phone (the phone Hub opens it too) it is a full-screen sheet with 44 px targets.
 */
export function PickerModal({ sessionId, opened, onClose }: { sessionId: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery(PHONE_HUB_QUERY) ?? false;
  const [typed, setTyped] = useState('');
  const picker = usePicker(sessionId, typed, opened);
  const { add } = useLotActions(sessionId);
  const [addingId, setAddingId] = useState<string | null>(null);

  useEffect(() => {
    if (!opened) {
      setTyped('');
      add.reset();
    }
  }, [opened, add.reset]);

  const addItem = (item: PickerItem) => {
    const name = item.name || t('livehub.picker.unnamed');
    setAddingId(item.id);
    add.mutate(item.id, {
      onSuccess: () => notifications.show({ color: 'green', message: t('livehub.picker.added', { name }) }),
      onSettled: () => setAddingId(null),
    });
  };

  const isSearch = picker.searched !== '';
  const items = picker.data?.items ?? [];
  const now = Date.now();
  const waiting = items.filter((item) => pickerKind(item, now) === 'waits');
  const running = items.filter((item) => pickerKind(item, now) !== 'waits');
  const rowsOf = (list: PickerItem[]) =>
    list.map((item) => (
      <PickerRow key={item.id} item={item} now={now} isPhone={isMobile} isAdding={addingId === item.id} disabled={add.isPending} onAdd={() => addItem(item)} />
    ));
  const showLoading = (picker.isPending && picker.fetchStatus !== 'idle') || (picker.isFetching && picker.isPlaceholderData) || picker.isDebouncing;

  return (
    <Modal
      stackId={HUB_WINDOW.picker}
      opened={opened}
      onClose={onClose}
      title={t('livehub.picker.title')}
      size="lg"
      fullScreen={isMobile}
      centered={!isMobile}
      closeButtonProps={{ 'aria-label': t('common.close'), size: isMobile ? 'xl' : 'md' }}
    >
      <WindowAutoAdvance sessionId={sessionId} />
      <Stack gap="sm">
        <TextInput
          size={isMobile ? 'lg' : 'sm'}
          label={t('livehub.picker.search')}
          placeholder={t('livehub.picker.placeholder')}
          description={t('livehub.picker.hint')}
          leftSection={<SearchIcon size={16} />}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          data-autofocus
        />
        {add.isError && (
          <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => add.reset()} closeButtonLabel={t('common.close')}>
            <Text size="sm" fw={600}>
              {t('livehub.picker.addFailed')}
            </Text>
            <Text size="sm">{apiErrorText(add.error, { networkMessage: t('common.networkError'), fallback: t('livehub.picker.addFailed') })}</Text>
          </Alert>
        )}
        <div aria-live="polite">
          {showLoading && (
            <Group gap="xs" role="status">
              <Loader size="xs" />
              <Text size="sm">{t('livehub.picker.loading')}</Text>
            </Group>
          )}
          {picker.isError && !picker.isFetching && (
            <Alert color="red" variant="light" role="alert">
              <Group justify="space-between" gap="xs">
                <Text size="sm">{isSearch ? t('livehub.picker.searchFailed') : t('livehub.picker.loadFailed')}</Text>
                <Button size="xs" variant="light" color="red" onClick={() => void picker.refetch()}>
                  {t('common.retry')}
                </Button>
              </Group>
            </Alert>
          )}
          {picker.isSuccess && !showLoading && items.length === 0 && (
            <Text size="sm" c="dimmed" role="status">
              {t('livehub.picker.empty')}
            </Text>
          )}
        </div>
        {items.length > 0 && (
          <ScrollArea.Autosize mah={isMobile ? undefined : 420} type="auto">
            <Stack gap="md">
              {waiting.length > 0 && (
                <Stack gap={6}>
                  {running.length > 0 && (
                    <Title order={3} size="h6">
                      {t('livehub.picker.waitingGroup')}
                    </Title>
                  )}
                  <Stack
                    component="ul"
                    gap="xs"
                    p={0}
                    m={0}
                    aria-label={running.length > 0 ? t('livehub.picker.waitingGroup') : t('livehub.picker.results')}
                    data-testid="picker-waiting"
                  >
                    {rowsOf(waiting)}
                  </Stack>
                </Stack>
              )}
              {running.length > 0 && (
                <Stack gap={6}>
                  <Title order={3} size="h6">
                    {t('livehub.picker.runningGroup')}
                  </Title>
                  <Text size="xs" c="dimmed">
                    {t('livehub.picker.runningHint')}
                  </Text>
                  <Stack component="ul" gap="xs" p={0} m={0} aria-label={t('livehub.picker.runningGroup')} data-testid="picker-running">
                    {rowsOf(running)}
                  </Stack>
                </Stack>
              )}
            </Stack>
          </ScrollArea.Autosize>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} size={isMobile ? 'lg' : 'sm'} fullWidth={isMobile} mih={isMobile ? PHONE_TARGET_PX : undefined}>
            {t('livehub.picker.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
