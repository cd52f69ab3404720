import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';
import { ApiError } from '@/lib/api-client';
import { timeZoneName } from '@/lib/drop';

import { useCreateProduct } from '@/features/admin-products/api/create-product';
import {
  adminProductsQueryKey,
  refreshStorefrontProducts,
} from '@/features/admin-products/api/get-admin-products';
import { reorderProducts } from '@/features/admin-products/api/reorder-products';
import { useUpdateProduct } from '@/features/admin-products/api/update-product';
import { PRODUCT_NOT_FOUND, type AdminProduct } from '@/features/admin-products/types';
import {
  EMPTY_PRODUCT_FORM,
  fromDateTimeLocal,
  MAX_PER_ACCOUNT,
  moveToPlace,
  productFormData,
  productToFormValues,
  serverFieldErrors,
  validateProductForm,
  type ProductFormErrors,
  type ProductFormValues,
} from '@/features/admin-products/utils/product-form';

import { ImagePicker } from './image-picker';
import { RelatedProductsPicker } from './related-products-picker';
import './product-form.css';

type ProductFormProps = {
  /** The product being edited; without it the form creates a new one. */
  product?: AdminProduct;
  /** Every product in the cards' order: the related-products picker, and the Position. */
  products: AdminProduct[];
  onSaved?: (product: AdminProduct) => void;
  onCancel?: () => void;
};

type TextFieldName = Exclude<
  keyof ProductFormValues,
  'delete_after_out_of_stock' | 'dupe_warning' | 'related_ids' | 'description'
>;

/** Create and edit share this form (docs/product.md, Behaviour): Edit fills it; submit updates in place. */
export function ProductForm({ product, products, onSaved, onCancel }: ProductFormProps) {
  const editing = product !== undefined;
  // the form as it opened: a drop's fields are sent only when they differ from it
  const [initial] = useState<ProductFormValues>(() =>
    product ? productToFormValues(product, products) : EMPTY_PRODUCT_FORM,
  );
  const [values, setValues] = useState<ProductFormValues>(initial);
  const queryClient = useQueryClient();
  const [image, setImage] = useState<Blob | null>(null);
  const [errors, setErrors] = useState<ProductFormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [imageKey, setImageKey] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const saving = create.isPending || update.isPending;

  const set = <K extends keyof ProductFormValues>(name: K, value: ProductFormValues[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const focusFirstInvalid = () =>
    requestAnimationFrame(() =>
      formRef.current
        ?.querySelector<HTMLElement>('[aria-invalid="true"], .related-picker--invalid input')
        ?.focus(),
    );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // a new product can go anywhere up to after the last one
    const places = products.length + (editing ? 0 : 1);
    const found = validateProductForm(values, { places });
    setFormError(null);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      focusFirstInvalid();
      return;
    }
    try {
      const saved = editing
        ? await update.mutateAsync({
            id: product.id,
            body: productFormData(values, image, {
              method: 'PUT',
              sortOrder: product.sort_order,
              initial,
            }),
          })
        : await create.mutateAsync(productFormData(values, image));
      // A Position counts as the cards do: the list is saved with the product in that place.
      const place = Number(values.sort_order.trim());
      const list = editing ? products : [...products, saved];
      const moved = place ? moveToPlace(list, saved, place) : null;
      if (moved) {
        await reorderProducts(moved);
        void queryClient.invalidateQueries({ queryKey: adminProductsQueryKey });
        void refreshStorefrontProducts(queryClient);
      }
      toast.success(editing ? `${saved.name} updated.` : `${saved.name} created.`);
      if (!editing) {
        setValues(EMPTY_PRODUCT_FORM);
        setImage(null);
        setImageKey((key) => key + 1);
      }
      setErrors({});
      onSaved?.(saved);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        const fieldErrors = serverFieldErrors(error.errors);
        setErrors(fieldErrors);
        setFormError(Object.keys(fieldErrors).length ? null : error.message);
        focusFirstInvalid();
      } else if (error instanceof ApiError && error.status === 409) {
        // the one conflict of the form: a release time ahead while orders hold the drop's units
        setErrors({ release_at: error.message });
        focusFirstInvalid();
      } else if (error instanceof ApiError && error.isNotFound) {
        setFormError(PRODUCT_NOT_FOUND);
      } else {
        console.error('Saving the product failed.', error);
        setFormError(error instanceof Error ? error.message : 'Saving the product failed.');
      }
    }
  };

  const textField = (
    name: TextFieldName,
    label: string,
    options: {
      optional?: boolean;
      inputMode?: 'decimal' | 'numeric';
      hint?: string;
      placeholder?: string;
    } = {},
  ) => (
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

  // the zone's name at the moment typed (winter and summer time differ), else now
  const typedRelease = fromDateTimeLocal(values.release_at.trim());
  const releaseZone = timeZoneName(
    Number.isNaN(typedRelease.getTime()) ? new Date() : typedRelease,
  );
  const zoneId = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const relatedOptions = products.filter(
    (candidate) => candidate.id !== product?.id && candidate.related_ids.length === 0,
  );

  return (
    <form ref={formRef} className="product-form" noValidate onSubmit={onSubmit} aria-busy={saving}>
      <div className="product-form__grid">
        {textField('name', 'Name')}
        {textField('category', 'Category', {
          hint: 'Several? Separate them with commas: Pets, Exclusives.',
        })}
        {textField('price', 'Price ($)', { inputMode: 'decimal', placeholder: '4.99' })}
        {textField('savings', 'Original price ($)', {
          optional: true,
          inputMode: 'decimal',
          hint: 'Shown as a saving when higher than the price.',
        })}
        {textField('stock', 'Stock', {
          optional: true,
          inputMode: 'numeric',
          hint: 'Empty means unlimited.',
        })}
        {textField('weight', 'Weight (kg)', { optional: true, inputMode: 'decimal' })}
        {textField('mutation', 'Mutation', { optional: true, placeholder: 'Rainbow' })}
        {textField('sort_order', 'Position', {
          optional: true,
          inputMode: 'numeric',
          hint: 'Its place in the list, as on its card: 1 comes first. Dragging sets it too.',
        })}
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
        <Field
          label="Description"
          optional
          error={errors.description}
          className="product-form__wide"
        >
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
        <div className="product-form__wide">
          <RelatedProductsPicker
            options={relatedOptions}
            value={values.related_ids}
            onChange={(ids) => set('related_ids', ids)}
            error={errors.related_ids}
          />
        </div>
        <div className="product-form__wide">
          <ImagePicker
            key={imageKey}
            currentImage={product?.image ?? null}
            value={image}
            onChange={setImage}
            error={errors.image}
            onError={(message) => setErrors((current) => ({ ...current, image: message }))}
            disabled={saving}
          />
        </div>
      </div>
      {formError ? (
        <p className="product-form__error" role="alert">
          {formError}
        </p>
      ) : null}
      <div className="product-form__actions">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" loading={saving}>
          {editing ? 'Save changes' : 'Add Product'}
        </Button>
      </div>
    </form>
  );
}
