import { useId, type ReactNode } from 'react';

import './field.css';

/** What a control inside a Field spreads onto itself so its label, hint and error belong to it. */
export type FieldControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

type FieldProps = {
  label: ReactNode;
  /** The first message for this field (client check or server 422); marks the control invalid. */
  error?: string;
  hint?: ReactNode;
  /** Shows "(optional)" after the label. */
  optional?: boolean;
  className?: string;
  /** Renders the control: an input, a select, a textarea... */
  children: (control: FieldControlProps) => ReactNode;
};

/**
 * A label, a control, its help text and its error, tied together for screen readers.
 *
 *   <Field label="Price" error={errors.price}>
 *     {(control) => <input {...control} className="form-control" inputMode="decimal" />}
 *   </Field>
 */
export function Field({ label, error, hint, optional = false, className, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');

  return (
    <div
      className={['form-field', error && 'form-field--invalid', className]
        .filter(Boolean)
        .join(' ')}
    >
      <label className="form-field__label" htmlFor={id}>
        {label}
        {optional ? <span className="form-field__optional"> (optional)</span> : null}
      </label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint ? (
        <p id={hintId} className="form-field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="form-field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
