import { useTranslation } from 'react-i18next';
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
  /**
   * Under the control (the default, so side-by-side inputs of a grid stay aligned) or between
   * the label and the control (single-column forms, read before the control is reached).
   */
  hintPosition?: 'above' | 'below';
  /** Shows "(optional)" after the label. */
  optional?: boolean;
  /** The error is announced as soon as it appears (role "alert"). */
  announceError?: boolean;
  /** Drawn on the control's row, to its right: a show/hide toggle, an avatar preview, a button. */
  aside?: ReactNode;
  className?: string;
  /** Renders the control: an input, a select, a textarea... */
  children: (control: FieldControlProps) => ReactNode;
};

/**
 * The one form field of the shop: a label, a control, its help text and its error, tied
 * together for screen readers.
 *
 *   <Field label="Price" error={errors.price}>
 *     {(control) => <input {...control} className="form-control" inputMode="decimal" />}
 *   </Field>
 */
export function Field({
  label,
  error,
  hint,
  hintPosition = 'below',
  optional = false,
  announceError = false,
  aside,
  className,
  children,
}: FieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');

  const hintText = hint ? (
    <p id={hintId} className="form-field__hint">
      {hint}
    </p>
  ) : null;
  const control = children({
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  });

  return (
    <div
      className={['form-field', error && 'form-field--invalid', className]
        .filter(Boolean)
        .join(' ')}
    >
      <label className="form-field__label" htmlFor={id}>
        {label}
        {optional ? <span className="form-field__optional"> {t('common.optional')}</span> : null}
      </label>
      {hintPosition === 'above' ? hintText : null}
      <div className="form-field__row">
        {control}
        {aside}
      </div>
      {hintPosition === 'below' ? hintText : null}
      {error ? (
        <p id={errorId} className="form-field__error" role={announceError ? 'alert' : undefined}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
