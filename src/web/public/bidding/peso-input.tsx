import { Input } from '@mantine/core';
import { type ChangeEvent, type KeyboardEvent, type PointerEvent, type ReactNode, useRef, useState } from 'react';
import classes from './bid-form.module.css';
import type { Amount } from './bid-input';
import { amountOf, canStep, caretOverSeparator, digitsOf, formatPeso, reformat, stepAmount } from './peso-text';

interface PesoInputProps {
  label: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  value: Amount;
  onChange: (value: Amount) => void;
  /** Where ArrowDown stops and where stepping an empty field starts; typing below it is allowed. */
  min: number;
  /** Where ArrowUp stops; typing above it is allowed. */
  max: number;
  step: number;
  disabled?: boolean;
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
 * An amount in whole pesos, shown as $1,234 while it is typed, with the phone's number pad: the
 * bid form's own field instead of Mantine's NumberInput, whose react-number-format was 9 KB gzip of
 * the auction page (issue 14, item 14). The rules live in peso-text.ts; the value is an Amount.
 */
export function PesoInput({ label, description, error, value, onChange, min, max, step, disabled, 'data-testid': testId }: PesoInputProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(() => formatPeso(digitsOf(value)));
  // The value `text` stands for: a different one from the form (a quick-add, a new minimum) replaces the text.
  const [shown, setShown] = useState<Amount>(value);
  if (!Object.is(shown, value)) {
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

  const steppers = canStep(value) ? (
    <div className={classes.steppers}>
      {stepper(1, typeof value === 'number' && value >= max)}
      {stepper(-1, typeof value === 'number' && value <= min)}
    </div>
  ) : null;

  return (
    <Input.Wrapper label={label} description={description} error={error} size="md">
      <Input
        ref={inputRef}
        type="text"
        inputMode="numeric"
        value={text}
        onChange={handleChange}
        onKeyDown={handleKeyDown}
        disabled={disabled}
        error={error}
        size="md"
        rightSection={steppers}
        rightSectionWidth={27}
        rightSectionPointerEvents={disabled ? 'none' : 'all'}
        data-testid={testId}
      />
    </Input.Wrapper>
  );
}
