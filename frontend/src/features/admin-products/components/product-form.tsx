import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type RefObject } from 'react';

import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { ApiError } from '@/lib/api-client';

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
  moveToPlace,
  productFormData,
  productToFormValues,
  serverFieldErrors,
  validateProductForm,
  type ProductFormErrors,
  type ProductFormValues,
} from '@/features/admin-products/utils/product-form';

import { ImagePicker } from './image-picker';
import {
  ProductDescriptionFields,
  ProductDropFields,
  ProductTextFields,
  type ProductFieldsProps,
} from './product-form-fields';
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

type SaveOptions = {
  product?: AdminProduct;
  products: AdminProduct[];
  /** The form as it opened: a drop's fields are sent only when they differ from it. */
  initial: ProductFormValues;
  formRef: RefObject<HTMLFormElement | null>;
  setErrors: (errors: ProductFormErrors) => void;
  /** After a save: a new product's form empties itself. */
  onSaved: (saved: AdminProduct) => void;
};

/** Saves the form (then its Position, as the cards do) and shows what went wrong where. */
function useProductSave({ product, products, initial, formRef, setErrors, onSaved }: SaveOptions) {
  const editing = product !== undefined;
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const create = useCreateProduct();
  const update = useUpdateProduct();

  const focusFirstInvalid = () =>
    requestAnimationFrame(() =>
      formRef.current
        ?.querySelector<HTMLElement>('[aria-invalid="true"], .related-picker--invalid input')
        ?.focus(),
    );

  const save = async (values: ProductFormValues, image: Blob | null) => {
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
    setErrors({});
    onSaved(saved);
  };

  const showFailure = (error: unknown) => {
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
  };

  const submit = async (values: ProductFormValues, image: Blob | null) => {
    // a new product can go anywhere up to after the last one
    const places = products.length + (editing ? 0 : 1);
    const found = validateProductForm(values, { places });
    setFormError(null);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      focusFirstInvalid();
      return;
    }
    await save(values, image).catch(showFailure);
  };

  return { submit, formError, saving: create.isPending || update.isPending };
}

/** The form's values (from the product edited, or empty) and its errors; a change clears its error. */
function useProductValues(product: AdminProduct | undefined, products: AdminProduct[]) {
  // the form as it opened: a drop's fields are sent only when they differ from it
  const [initial] = useState<ProductFormValues>(() =>
    product ? productToFormValues(product, products) : EMPTY_PRODUCT_FORM,
  );
  const [values, setValues] = useState<ProductFormValues>(initial);
  const [errors, setErrors] = useState<ProductFormErrors>({});
  const set: ProductFieldsProps['set'] = (name, value) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  };
  return { initial, values, setValues, errors, setErrors, set };
}

/** Create and edit share this form (docs/product.md, Behaviour): Edit fills it; submit updates in place. */
export function ProductForm({ product, products, onSaved, onCancel }: ProductFormProps) {
  const editing = product !== undefined;
  const { initial, values, setValues, errors, setErrors, set } = useProductValues(
    product,
    products,
  );
  const [image, setImage] = useState<Blob | null>(null);
  const [imageKey, setImageKey] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const { submit, formError, saving } = useProductSave({
    product,
    products,
    initial,
    formRef,
    setErrors,
    onSaved: (saved) => {
      if (!editing) {
        setValues(EMPTY_PRODUCT_FORM);
        setImage(null);
        setImageKey((key) => key + 1);
      }
      onSaved?.(saved);
    },
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    await submit(values, image);
  };
  const fields = { values, errors, set };
  const relatedOptions = products.filter(
    (candidate) => candidate.id !== product?.id && candidate.related_ids.length === 0,
  );

  return (
    <form ref={formRef} className="product-form" noValidate onSubmit={onSubmit} aria-busy={saving}>
      <div className="product-form__grid">
        <ProductTextFields {...fields} />
        <ProductDropFields {...fields} />
        <ProductDescriptionFields {...fields} />
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
