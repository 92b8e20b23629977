import { Alert, Button, Center, Group, Image, Loader, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import type { PickerItem } from '../../domain/live.js';
import { formatMoney } from '../../domain/money.js';
import { useLotActions, usePicker } from '../api/live-hub';
import { AuctionStatusBadge } from '../components/auction-status-badge';
import { PhotoIcon } from '../components/icons';
import { SearchIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { COMPACT_QUERY } from './hub-layout';
import { HUB_WINDOW } from './hub-windows';

/**
 * 'Añadir Lote' (SPEC §5 "Auction picker search"): the default list under 2 characters, a name
 * (or id) search otherwise, 300 ms after the last key. The modal stays open to add several lots.
 */
export function PickerModal({ sessionId, opened, onClose }: { sessionId: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery(COMPACT_QUERY) ?? false;
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
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="sm">
        <TextInput
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
            <Stack component="ul" gap="xs" p={0} m={0} aria-label={t('livehub.picker.results')}>
              {items.map((item) => (
                <PickerRow key={item.id} item={item} isAdding={addingId === item.id} disabled={add.isPending} onAdd={() => addItem(item)} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('livehub.picker.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function PickerRow({ item, isAdding, disabled, onAdd }: { item: PickerItem; isAdding: boolean; disabled: boolean; onAdd: () => void }) {
  const { t } = useTranslation();
  const name = item.name || t('livehub.picker.unnamed');
  const price = item.currentPrice ?? item.startingPrice;
  return (
    <Group component="li" gap="sm" wrap="nowrap" p={6} style={{ listStyle: 'none', borderRadius: 10, border: '1px solid var(--mantine-color-gray-3)' }}>
      {item.thumbnailUrl ? (
        <Image src={item.thumbnailUrl} alt="" w={48} h={48} radius="sm" fit="cover" style={{ flex: 'none' }} />
      ) : (
        <Center w={48} h={48} bg="gray.1" c="gray.5" style={{ borderRadius: 6, flex: 'none' }}>
          <PhotoIcon size={20} />
        </Center>
      )}
      <Stack gap={2} miw={0} style={{ flex: 1 }}>
        <Text size="sm" fw={600} lineClamp={1} fs={item.name ? undefined : 'italic'}>
          {name}
        </Text>
        <Group gap={6}>
          <Text size="xs" c="dimmed">
            {t('livehub.picker.price', { price: formatMoney(price) })}
          </Text>
          <AuctionStatusBadge status={item.status} size="sm" />
        </Group>
      </Stack>
      <Button size="compact-sm" onClick={onAdd} loading={isAdding} disabled={disabled && !isAdding} aria-label={t('livehub.picker.addLabel', { name })}>
        {t('livehub.picker.add')}
      </Button>
    </Group>
  );
}
