import { Alert, Button, Divider, Group, Modal, Stack, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { formatMoney } from '../../../domain/money.js';
import type { PaymentView, WonItem } from '../../../domain/payments.js';
import { AlertIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import type { ReadyRow } from './ready-rows';
import { ShippingFields } from './shipping-fields';
import { linkBlocker, type Shipping, type ShippingErrors, type ShippingFormValues, shippingFormValues, validateShipping } from './shipping-rules';
import type { LinkMode } from './use-link-actions';

export interface EditShippingTarget {
  key: string;
  winnerName: string;
  shipping: Shipping;
}

/** 'Editar envío' for a winner without a draft yet: kept in the browser and applied when the draft is created. */
export function EditShippingModal({
  target,
  onClose,
  onSave,
}: {
  target: EditShippingTarget | null;
  onClose: () => void;
  onSave: (key: string, shipping: Shipping) => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={target !== null} onClose={onClose} title={t('payments.shipping.title')} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
      {target && <EditShippingForm key={target.key} target={target} onClose={onClose} onSave={onSave} />}
    </Modal>
  );
}

function EditShippingForm({ target, onClose, onSave }: { target: EditShippingTarget; onClose: () => void; onSave: (key: string, shipping: Shipping) => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState(() => shippingFormValues(target.shipping));
  const [errors, setErrors] = useState<ShippingErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateShipping(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    onSave(target.key, checked.value);
    onClose();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">{t('payments.shipping.forWinner', { name: target.winnerName })}</Text>
        <ShippingFields
          values={values}
          errors={errors}
          onChange={(patch) => {
            setValues((current) => ({ ...current, ...patch }));
            setErrors({});
          }}
        />
        <Text size="xs" c="dimmed">
          {t('payments.shipping.keptLocally')}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('payments.shipping.cancel')}
          </Button>
          <Button type="submit">{t('payments.shipping.save')}</Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * What the confirmation is about: a draft to finalise, or a winner with no draft yet ('Enviar
 * enlace de pago'), whose draft is created only once the seller confirms, so no
 * stray draft is left behind by a change of mind.
 */
export type ConfirmSource = { kind: 'draft'; payment: PaymentView } | { kind: 'ready'; row: ReadyRow };

export interface ConfirmTarget {
  source: ConfirmSource;
  mode: LinkMode;
  /** What the draft's fields (or the winner's 'Editar envío') showed when the button was pressed. */
  initial: ShippingFormValues;
}

/** What the form shows of either source. */
function confirmSubject(source: ConfirmSource) {
  if (source.kind === 'draft') {
    const p = source.payment;
    return { key: `payment:${p.id}`, winnerName: p.winnerName, wonItems: p.wonItems, totalAmount: p.totalAmount, isReserved: p.isReserved, fixed: p };
  }
  const r = source.row;
  return { key: `ready:${r.key}`, winnerName: r.winnerName, wonItems: r.wonItems, totalAmount: r.totalAmount, isReserved: false, fixed: null };
}

interface ShippingConfirmModalProps {
  target: ConfirmTarget | null;
  isBusy: boolean;
  /** Closed without creating anything. */
  onDismiss: (target: ConfirmTarget) => void;
  /** True when the window may close (the link went out, or the draft exists and its notice says what failed). */
  onConfirm: (target: ConfirmTarget, shipping: Shipping) => Promise<boolean>;
  onDone: () => void;
}

/** SPEC §2: confirm shipping before creating the link / before finalising. SPEC §5: a link needs a carrier or a cost above 0. */
export function ShippingConfirmModal({ target, isBusy, onDismiss, onConfirm, onDone }: ShippingConfirmModalProps) {
  const { t } = useTranslation();
  const close = () => {
    if (!target || isBusy) return;
    onDismiss(target);
  };
  return (
    <Modal
      opened={target !== null}
      onClose={close}
      title={t(target?.mode === 'send' ? 'payments.confirm.createTitle' : 'payments.confirm.finalizeTitle')}
      centered
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': t('common.close'), disabled: isBusy }}
    >
      {target && <ConfirmForm key={confirmSubject(target.source).key} target={target} isBusy={isBusy} onCancel={close} onConfirm={onConfirm} onDone={onDone} />}
    </Modal>
  );
}

function ConfirmForm({
  target,
  isBusy,
  onCancel,
  onConfirm,
  onDone,
}: { target: ConfirmTarget; isBusy: boolean; onCancel: () => void } & Pick<ShippingConfirmModalProps, 'onConfirm' | 'onDone'>) {
  const { t } = useTranslation();
  const { mode } = target;
  const subject = confirmSubject(target.source);
  // A reserved draft's amount is fixed: confirm the shipping the link will charge, not what was typed.
  const [values, setValues] = useState(subject.isReserved && subject.fixed ? shippingFormValues(subject.fixed) : target.initial);
  const [errors, setErrors] = useState<ShippingErrors>({});
  const [blocker, setBlocker] = useState<'noItems' | 'needShipping' | null>(null);
  const checked = validateShipping(values);
  const shippingCost = checked.ok ? checked.value.shippingCost : 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isBusy) return;
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    const problem = linkBlocker({ ...checked.value, wonItems: subject.wonItems });
    if (problem) {
      setBlocker(problem);
      return;
    }
    if (await onConfirm(target, checked.value)) onDone();
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Text size="sm">{t('payments.confirm.intro', { name: subject.winnerName })}</Text>
        <ShippingFields
          values={values}
          errors={errors}
          isDisabled={subject.isReserved}
          onChange={(patch) => {
            setValues((current) => ({ ...current, ...patch }));
            setErrors({});
            setBlocker(null);
          }}
        />
        {blocker && (
          <Alert color="red" variant="light" icon={<AlertIcon />} role="alert">
            {t(`payments.confirm.${blocker}`)}
          </Alert>
        )}
        <Totals items={subject.wonItems} itemsTotal={subject.totalAmount} shippingCost={shippingCost} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={isBusy}>
            {t('payments.confirm.cancel')}
          </Button>
          <Button type="submit" loading={isBusy}>
            {t(mode === 'send' ? 'payments.confirm.submitSend' : 'payments.confirm.submitFinalize')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Totals({ items, itemsTotal, shippingCost }: { items: WonItem[]; itemsTotal: number; shippingCost: number }) {
  const { t } = useTranslation();
  const row = (label: string, value: string, strong = false) => (
    <Group justify="space-between" gap="sm" wrap="nowrap">
      <Text size="sm" fw={strong ? 700 : 400}>
        {label}
      </Text>
      <Text size="sm" fw={strong ? 700 : 400} style={{ whiteSpace: 'nowrap' }}>
        {value}
      </Text>
    </Group>
  );
  return (
    <Stack gap={4}>
      {row(t('payments.confirm.itemsTotal', { count: items.length }), formatMoney(itemsTotal))}
      {row(t('payments.confirm.shipping'), formatMoney(shippingCost))}
      <Divider />
      {row(t('payments.confirm.grandTotal'), formatMoney(itemsTotal + shippingCost), true)}
    </Stack>
  );
}
