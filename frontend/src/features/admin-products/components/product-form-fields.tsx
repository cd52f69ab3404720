import { Field } from '@/components/ui/field';
import { timeZoneName } from '@/lib/drop';

import {
  fromDateTimeLocal,
  MAX_PER_ACCOUNT,
  type ProductFormErrors,
  type ProductFormValues,
} from '@/features/admin-products/utils/product-form';

/** What every part of the product form reads and writes. */
export type ProductFieldsProps = {
  values: ProductFormValues;
  errors: ProductFormErrors;
  set: <K extends keyof ProductFormValues>(name: K, value: ProductFormValues[K]) => void;
};

type TextFieldName = Exclude<
  keyof ProductFormValues,
  'delete_after_out_of_stock' | 'dupe_warning' | 'related_ids' | 'description'
>;

function textField(
  { values, errors, set }: ProductFieldsProps,
  name: TextFieldName,
  label: string,
  options: {
    optional?: boolean;
    inputMode?: 'decimal' | 'numeric';
    hint?: string;
    placeholder?: string;
  } = {},
) {
  return (
    <Field label={label} optional={options.optional} error={errors[name]} hint={options.hint}>
      {(control) => (
        <input
          {...control}
          name={name}
          className="form-control"
          inputMode={options.inputMode}
          placeholder={options.placeholder}
          required={!options.optional}
          value={values[name]}
          onChange={(event) => set(name, event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** Name, category, prices, stock, weight, mutation and position. */
export function ProductTextFields(props: ProductFieldsProps) {
  return (
    <>
      {textField(props, 'name', 'Name')}
      {textField(props, 'category', 'Category', {
        hint: 'Several? Separate them with commas: Pets, Exclusives.',
      })}
      {textField(props, 'price', 'Price ($)', { inputMode: 'decimal', placeholder: '4.99' })}
      {textField(props, 'savings', 'Original price ($)', {
        optional: true,
        inputMode: 'decimal',
        hint: 'Shown as a saving when higher than the price.',
      })}
      {textField(props, 'stock', 'Stock', {
        optional: true,
        inputMode: 'numeric',
        hint: 'Empty means unlimited.',
      })}
      {textField(props, 'weight', 'Weight (kg)', { optional: true, inputMode: 'decimal' })}
      {textField(props, 'mutation', 'Mutation', { optional: true, placeholder: 'Rainbow' })}
      {textField(props, 'sort_order', 'Position', {
        optional: true,
        inputMode: 'numeric',
        hint: 'Its place in the list, as on its card: 1 comes first. Dragging sets it too.',
      })}
    </>
  );
}

/** A drop's release time (in the browser's zone, named as typed) and its cap per account. */
export function ProductDropFields({ values, errors, set }: ProductFieldsProps) {
  // the zone's name at the moment typed (winter and summer time differ), else now
  const typedRelease = fromDateTimeLocal(values.release_at.trim());
  const releaseZone = timeZoneName(
    Number.isNaN(typedRelease.getTime()) ? new Date() : typedRelease,
  );
  const zoneId = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <>
      <Field
        label="Release at"
        optional
        error={errors.release_at}
        hint={`Your local time (${zoneId}). A drop: listed now, sold from then on. Empty: on sale now.`}
        aside={<span className="product-form__zone">{releaseZone}</span>}
      >
        {(control) => (
          <input
            {...control}
            type="datetime-local"
            name="release_at"
            className="form-control"
            value={values.release_at}
            onChange={(event) => set('release_at', event.currentTarget.value)}
          />
        )}
      </Field>
      <Field
        label="Max per account"
        optional
        error={errors.max_per_account}
        hint={`Units one buyer may hold (per Discord account, shop account and browser; bundles count), 1 to ${MAX_PER_ACCOUNT}. Empty: no limit.`}
      >
        {(control) => (
          <input
            {...control}
            type="number"
            name="max_per_account"
            className="form-control"
            min={1}
            max={MAX_PER_ACCOUNT}
            step={1}
            inputMode="numeric"
            value={values.max_per_account}
            onChange={(event) => set('max_per_account', event.currentTarget.value)}
          />
        )}
      </Field>
    </>
  );
}

/** The description and the two switches. */
export function ProductDescriptionFields({ values, errors, set }: ProductFieldsProps) {
  return (
    <>
      <Field label="Description" optional error={errors.description} className="product-form__wide">
        {(control) => (
          <textarea
            {...control}
            name="description"
            className="form-control"
            rows={3}
            value={values.description}
            onChange={(event) => set('description', event.currentTarget.value)}
          />
        )}
      </Field>
      <div className="product-form__wide product-form__checks">
        <label className="form-check">
          <input
            type="checkbox"
            name="delete_after_out_of_stock"
            checked={values.delete_after_out_of_stock}
            onChange={(event) => set('delete_after_out_of_stock', event.currentTarget.checked)}
          />
          <span>Archive when sold out</span>
        </label>
        <label className="form-check">
          <input
            type="checkbox"
            name="dupe_warning"
            checked={values.dupe_warning}
            onChange={(event) => set('dupe_warning', event.currentTarget.checked)}
          />
          <span>Dupe warning when bought again</span>
        </label>
      </div>
    </>
  );
}
