import { Button, Group, Stack, Text } from '@mantine/core';
import { formatMoney } from '../../../../domain/money.js';
import { NativeDialog } from '../../../components/native-dialog';
import { useTranslation } from '../../../i18n';

/** A buyer's first bid in a show: bids are binding, said once; its button bids the amount the tap showed. */
export function BindingDialog({ amount, onConfirm, onCancel }: { amount: number; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <NativeDialog title={t('live.phone.binding.title')} closable onClose={onCancel}>
      <Stack gap="md" data-testid="binding-confirm">
        <Text fw={600}>{t('live.phone.binding.message')}</Text>
        <Text size="sm" c="dimmed">
          {t('live.phone.binding.hint')}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" size="md" onClick={onCancel}>
            {t('bidding.confirm.cancel')}
          </Button>
          <Button size="md" onClick={onConfirm} data-autofocus>
            {t('live.phone.binding.confirm', { amount: formatMoney(amount) })}
          </Button>
        </Group>
      </Stack>
    </NativeDialog>
  );
}
