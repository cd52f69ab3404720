import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  ref?: Ref<HTMLInputElement>;
  label: string;
  hint?: ReactNode;
  /** Drawn to the right of the input, e.g. the Roblox avatar preview or the Apply button. */
  aside?: ReactNode;
};

/** A labelled checkout input with its help text tied to it for screen readers. */
export function Field({ label, hint, aside, className, type = 'text', ...props }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className={['checkout-field', className].filter(Boolean).join(' ')}>
      <label className="checkout-field__label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="checkout-field__hint">
          {hint}
        </p>
      ) : null}
      <div className="checkout-field__row">
        <input
          id={id}
          type={type}
          className="checkout-field__input"
          aria-describedby={hint ? hintId : undefined}
          {...props}
        />
        {aside}
      </div>
    </div>
  );
}
