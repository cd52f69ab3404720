import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

import './form-field.css';

export type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  ref?: Ref<HTMLInputElement>;
  label: string;
  /** The first server message for this field; marks the input invalid. */
  error?: string;
  /** A short help text under the label. */
  hint?: ReactNode;
  /** Something drawn inside the input's box on the right, e.g. a show/hide toggle. */
  endAdornment?: ReactNode;
};

/** A labelled input with its help text and error, both tied to it for screen readers. */
export function TextField({
  label,
  error,
  hint,
  endAdornment,
  className,
  type = 'text',
  ...props
}: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');

  return (
    <div className={['field', error && 'field--invalid', className].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <div className="field__control">
        <input
          id={id}
          type={type}
          className={['field__input', endAdornment && 'field__input--with-end']
            .filter(Boolean)
            .join(' ')}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          {...props}
        />
        {endAdornment ? <div className="field__end">{endAdornment}</div> : null}
      </div>
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
