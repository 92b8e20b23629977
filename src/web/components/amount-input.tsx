import { Input, type MantineSize } from '@mantine/core';
import { type ChangeEvent, type FocusEvent, type KeyboardEvent, type PointerEvent, type ReactNode, useRef, useState } from 'react';
import { type Amount, amountOf, canStep, caretOverSeparator, digitsOf, formatPeso, reformat, stepAmount } from '../lib/peso-text';
import classes from './amount-input.module.css';

interface AmountInputProps {
  /** The visible label; a field inside a table row names itself with `aria-label` instead. */
  label?: ReactNode;
  'aria-label'?: string;
  description?: ReactNode;
  error?: ReactNode;
  placeholder?: string;
  value: Amount;
  onChange: (value: Amount) => void;
  onBlur?: (event: FocusEvent<HTMLInputElement>) => void;
  /** Where ArrowDown stops and where stepping an empty field starts; typing below it is allowed. */
  min?: number;
  /** Where ArrowUp stops; typing above it is allowed. */
  max?: number;
  step?: number;
  disabled?: boolean;
  required?: boolean;
  /** Focus on first render: a field the buyer just opened to type in. */
  autoFocus?: boolean;
  size?: MantineSize;
  /** Shown in place of the steppers (a locked field's padlock, say). */
  rightSection?: ReactNode;
  /**
   * The text exactly as typed, beside a '$', with no grouping and no steppers; the value is the
   * text. For a field whose wrong input must stay on screen digit for digit next to its message
   * (the shipping cost: '-120', '99999999999').
   */
  asTyped?: boolean;
  /** The wrapper's flex, for a field sharing a row. */
  flex?: number;
  'data-testid'?: string;
}

/** Mantine's NumberInput chevron (15×15 view box). */
function Chevron({ up }: { up?: boolean }) {
  return (
    <svg viewBox="0 0 15 15" className={classes.chevron} data-up={up || undefined} aria-hidden="true">
      <path
        d="M3.13523 6.15803C3.3241 5.95657 3.64052 5.94637 3.84197 6.13523L7.5 9.56464L11.158 6.13523C11.3595 5.94637 11.6759 5.95657 11.8648 6.15803C12.0536 6.35949 12.0434 6.67591 11.842 6.86477L7.84197 10.6148C7.64964 10.7951 7.35036 10.7951 7.15803 10.6148L3.15803 6.86477C2.95657 6.67591 2.94637 6.35949 3.13523 6.15803Z"
        fill="currentColor"
        fillRule="evenodd"
      />
    </svg>
  );
}

/**
 * Whether the form's value is the one the field's text stands for: the value the field handed over,
 * or the number a form made of it ('-' kept as NaN, '700.' as 700). Anything else came from the form
 * (a quick-add, a new minimum, a reset) and replaces the text.
 */
function standsFor(shown: Amount, value: Amount): boolean {
  if (Object.is(shown, value)) return true;
  return typeof shown === 'string' && shown.trim() !== '' && typeof value === 'number' && Object.is(Number(shown), value);
}

/**
 * An amount in pesos, wherever one is typed: shown as $1,234 while it is typed, with the phone's
 * number pad. It never rewrites what was typed beyond that formatting (a minus sign, centavos and
 * any number of digits stay, and nothing is clamped), so the form's own checks say what is wrong.
 * Mantine's NumberInput is not used: its react-number-format was 9 KB gzip of the auction page, and
 * it dropped or capped what was typed. The rules live in lib/peso-text.ts; the value is an Amount.
 */
export function AmountInput({
  label,
  'aria-label': ariaLabel,
  description,
  error,
  placeholder,
  value,
  onChange,
  onBlur,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
  step = 1,
  disabled,
  required,
  autoFocus,
  size = 'sm',
  rightSection,
  asTyped,
  flex,
  'data-testid': testId,
}: AmountInputProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(() => formatPeso(digitsOf(value)));
  // The value `text` stands for: a different one from the form (a quick-add, a new minimum) replaces the text.
  const [shown, setShown] = useState<Amount>(value);
  if (!asTyped && !standsFor(shown, value)) {
    setShown(value);
    setText(formatPeso(digitsOf(value)));
  }

  const emit = (next: Amount, nextText: string) => {
    setShown(next);
    setText(nextText);
    onChange(next);
  };

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    if (asTyped) {
      onChange(input.value);
      return;
    }
    const edit = reformat(input.value, input.selectionStart ?? input.value.length);
    // Written here, with the caret, before React renders the same text: that keeps the caret in place.
    input.value = edit.text;
    input.setSelectionRange(edit.caret, edit.caret);
    emit(amountOf(edit.digits), edit.text);
  };

  const stepBy = (direction: 1 | -1) => {
    const next = stepAmount(value, direction, { step, min, max });
    if (next !== null) emit(next, formatPeso(digitsOf(next)));
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (asTyped) return;
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault();
      stepBy(event.key === 'ArrowUp' ? 1 : -1);
      return;
    }
    const input = event.currentTarget;
    if (input.selectionStart !== input.selectionEnd || input.selectionStart === null) return;
    const caret = caretOverSeparator(input.value, input.selectionStart, event.key);
    if (caret !== null) input.setSelectionRange(caret, caret);
  };

  // As NumberInput's: pointer-only steppers (the keyboard has the arrows), which keep the focus in the field.
  const stepper = (direction: 1 | -1, isOff: boolean) => (
    <button
      type="button"
      tabIndex={-1}
      aria-hidden="true"
      className={classes.stepper}
      disabled={disabled || isOff}
      onMouseDown={(event) => event.preventDefault()}
      onPointerDown={(event: PointerEvent) => {
        event.preventDefault();
        inputRef.current?.focus();
        stepBy(direction);
      }}
    >
      <Chevron up={direction > 0} />
    </button>
  );

  const steppers =
    !asTyped && canStep(value) ? (
      <div className={classes.steppers}>
        {stepper(1, typeof value === 'number' && value >= max)}
        {stepper(-1, typeof value === 'number' && value <= min)}
      </div>
    ) : null;
  const right = rightSection ?? steppers;

  return (
    <Input.Wrapper label={label} description={description} error={error} required={required} size={size} {...(flex === undefined ? {} : { flex })}>
      <Input
        ref={inputRef}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        value={asTyped ? String(value) : text}
        onChange={handleChange}
        onKeyDown={handleKeyDown}
        onBlur={onBlur}
        placeholder={placeholder}
        aria-label={ariaLabel}
        disabled={disabled}
        required={required}
        autoFocus={autoFocus}
        error={error}
        size={size}
        {...(asTyped ? { leftSection: '$', leftSectionPointerEvents: 'none' as const, maxLength: 20 } : {})}
        rightSection={right}
        rightSectionWidth={rightSection ? undefined : 27}
        rightSectionPointerEvents={rightSection || disabled ? 'none' : 'all'}
        data-testid={testId}
      />
    </Input.Wrapper>
  );
}
