import { useId } from 'react';

import type { AdminProduct } from '@/features/admin-products/types';

type RelatedProductsPickerProps = {
  /** Products that can be part of a bundle (not the product itself, not other bundles). */
  options: AdminProduct[];
  value: number[];
  onChange: (ids: number[]) => void;
  error?: string;
  disabled?: boolean;
};

/** The products a bundle is made of: a checkbox per candidate. */
export function RelatedProductsPicker({
  options,
  value,
  onChange,
  error,
  disabled,
}: RelatedProductsPickerProps) {
  const hintId = useId();
  const errorId = useId();
  const selected = new Set(value);

  return (
    <fieldset
      className={`related-picker${error ? ' related-picker--invalid' : ''}`}
      aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(' ')}
      disabled={disabled}
    >
      <legend className="form-field__label">
        Related products <span className="form-field__optional">(optional)</span>
      </legend>
      <p id={hintId} className="form-field__hint">
        Makes this product a bundle: selling it takes one of each of these too.
        {value.length ? ` ${value.length} selected.` : ''}
      </p>
      {options.length === 0 ? (
        <p className="related-picker__empty">No other products to bundle yet.</p>
      ) : (
        <ul className="related-picker__list">
          {options.map((option) => (
            <li key={option.id}>
              <label className="form-check">
                <input
                  type="checkbox"
                  checked={selected.has(option.id)}
                  onChange={(event) =>
                    onChange(
                      event.currentTarget.checked
                        ? [...value, option.id]
                        : value.filter((id) => id !== option.id),
                    )
                  }
                />
                <span>
                  {option.name}
                  {option.archived ? ' (archived)' : ''}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {error ? (
        <p id={errorId} className="form-field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
