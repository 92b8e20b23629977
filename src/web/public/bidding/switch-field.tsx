import type { ChangeEvent, ReactNode } from 'react';
import classes from './bid-form.module.css';

interface SwitchFieldProps {
  label: ReactNode;
  checked: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  disabled?: boolean;
  'aria-describedby'?: string;
}

/**
 * An on/off switch: a native checkbox with role="switch" (keyboard, focus and label click come with
 * it), drawn as Mantine's Switch at size sm without its InlineInput code, which
 * the light public pages would otherwise carry.
 */
export function SwitchField({ label, checked, onChange, disabled, 'aria-describedby': describedBy }: SwitchFieldProps) {
  return (
    <label className={classes.switch} data-disabled={disabled || undefined}>
      <span className={classes.switchControl}>
        <input
          type="checkbox"
          role="switch"
          // Implied by a checked checkbox; written out for checkers that look for it on role="switch".
          aria-checked={checked}
          className={classes.switchInput}
          checked={checked}
          onChange={onChange}
          disabled={disabled}
          aria-describedby={describedBy}
        />
        <span className={classes.track}>
          <span className={classes.thumb} />
        </span>
      </span>
      {label}
    </label>
  );
}
