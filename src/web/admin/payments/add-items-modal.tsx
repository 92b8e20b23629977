import { Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { formatMoney } from '../../../domain/money.js';
import type { PaymentView, WonItem } from '../../../domain/payments.js';
import { useTranslation } from '../../i18n';

interface AddItemsModalProps {
  payment: PaymentView | null;
  /** This winner's unbilled items of the draft's company (from the winners summary). */
  available: WonItem[];
  isBusy: boolean;
  onClose: () => void;
  onSubmit: (payment: PaymentView, auctionIds: string[]) => Promise<boolean>;
}

/** 'Agregar artículos disponibles': pick which of the winner's new wins join the draft (all, to start). */
export function AddItemsModal({ payment, available, isBusy, onClose, onSubmit }: AddItemsModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={payment !== null}
      onClose={() => {
        if (!isBusy) onClose();
      }}
      title={t('payments.addItems.title')}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {payment && <AddItemsForm key={payment.id} payment={payment} available={available} isBusy={isBusy} onClose={onClose} onSubmit={onSubmit} />}
    </Modal>
  );
}

function AddItemsForm({ payment, available, isBusy, onClose, onSubmit }: Omit<AddItemsModalProps, 'payment'> & { payment: PaymentView }) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<string[]>(() => available.map((item) => item.auctionId));
  // Items billed elsewhere meanwhile drop out of the choice.
  const chosen = selected.filter((id) => available.some((item) => item.auctionId === id));
  const total = available.filter((item) => chosen.includes(item.auctionId)).reduce((sum, item) => sum + item.amount, 0);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (chosen.length === 0 || isBusy) return;
    if (await onSubmit(payment, chosen)) onClose();
  };

  if (available.length === 0) {
    return (
      <Stack gap="md">
        <Text size="sm">{t('payments.confirm.noItems')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('payments.addItems.cancel')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Text size="sm">{t('payments.addItems.intro', { name: payment.winnerName })}</Text>
        <Checkbox.Group value={chosen} onChange={setSelected} label={t('payments.addItems.listLabel')}>
          <Stack gap="xs" mt="xs">
            {available.map((item) => (
              <Checkbox
                key={item.auctionId}
                value={item.auctionId}
                label={
                  <Group gap="xs" wrap="nowrap" justify="space-between">
                    <Text size="sm">{item.auctionName}</Text>
                    <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {formatMoney(item.amount)}
                    </Text>
                  </Group>
                }
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <Text size="sm" fw={600}>
          {t('payments.addItems.selected', { count: chosen.length, total: formatMoney(total) })}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isBusy}>
            {t('payments.addItems.cancel')}
          </Button>
          <Button type="submit" loading={isBusy} disabled={chosen.length === 0}>
            {t('payments.addItems.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
