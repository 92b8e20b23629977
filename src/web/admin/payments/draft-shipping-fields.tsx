import { useEffect, useRef, useState } from 'react';
import type { PaymentView } from '../../../domain/payments.js';
import { ShippingFields } from './shipping-fields';
import { type Shipping, type ShippingErrors, type ShippingFormValues, sameShipping, shippingFormValues, validateShipping } from './shipping-rules';

/**
 * What the fields show: the server's shipping, or what the seller is typing. A refetch replaces
 * the text only when the seller has not changed it since the last value the server sent.
 */
function useSyncedShipping(server: Shipping) {
  const serverValues = shippingFormValues(server);
  const [state, setState] = useState({ server: serverValues, local: serverValues });
  if (state.server.carrier !== serverValues.carrier || state.server.cost !== serverValues.cost) {
    const isCarrierClean = state.local.carrier === state.server.carrier;
    const isCostClean = state.local.cost === state.server.cost;
    setState({
      server: serverValues,
      local: { carrier: isCarrierClean ? serverValues.carrier : state.local.carrier, cost: isCostClean ? serverValues.cost : state.local.cost },
    });
  }
  const setLocal = (patch: Partial<ShippingFormValues>) => setState((current) => ({ ...current, local: { ...current.local, ...patch } }));
  return [state.local, setLocal] as const;
}

interface DraftShippingFieldsProps {
  payment: PaymentView;
  isSaving: boolean;
  isDisabled: boolean;
  onSave: (payment: PaymentView, shipping: Shipping) => Promise<boolean>;
  /** Reports the current text, so 'Finalizar' confirms what is on screen even before the blur's save lands. */
  onValuesChange?: (values: ShippingFormValues) => void;
  isCompact: boolean;
}

/** SPEC §2 'Pagos en borrador': carrier and cost typed inline, saved on blur (cost min 0, step 1). */
export function DraftShippingFields({ payment, isSaving, isDisabled, onSave, onValuesChange, isCompact }: DraftShippingFieldsProps) {
  const [values, setValues] = useSyncedShipping(payment);
  const [errors, setErrors] = useState<ShippingErrors>({});
  const reportRef = useRef(onValuesChange);
  useEffect(() => {
    reportRef.current = onValuesChange;
  });
  useEffect(() => {
    reportRef.current?.(values);
  }, [values]);

  const update = (patch: Partial<ShippingFormValues>) => {
    setValues(patch);
    setErrors({});
  };

  const save = async () => {
    const checked = validateShipping(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    if (sameShipping(checked.value, payment)) return;
    await onSave(payment, checked.value);
  };

  return (
    <ShippingFields
      values={values}
      errors={errors}
      onChange={update}
      isDisabled={isDisabled}
      inline={{ winnerName: payment.winnerName, size: isCompact ? 'xs' : 'sm', onBlur: () => void save(), isSaving }}
    />
  );
}
