import { useState } from 'react';

import { Field } from '@/components/ui/field';

import { resizeImageToPng, toDataUrl } from '@/features/admin-products/utils/resize-image';

type ImagePickerProps = {
  /** The picture the product has now (edit), shown until a new one is chosen. */
  currentImage: string | null;
  /** The resized PNG to upload, or null to keep the current picture. */
  value: Blob | null;
  onChange: (image: Blob | null) => void;
  error?: string;
  onError: (message: string | undefined) => void;
  disabled?: boolean;
};

/** Picks an image file, shrinks it to fit 300x300 as a PNG in the browser and previews it. */
export function ImagePicker({
  currentImage,
  value,
  onChange,
  error,
  onError,
  disabled,
}: ImagePickerProps) {
  const [preview, setPreview] = useState<{ blob: Blob; url: string } | null>(null);
  const [resizing, setResizing] = useState(false);

  const shown = preview && preview.blob === value ? preview.url : currentImage;

  return (
    <Field
      label="Image"
      optional
      error={error}
      hint={
        resizing ? 'Resizing…' : 'PNG, JPEG, WebP or GIF. Resized to fit 300×300 before upload.'
      }
      className="product-form__image"
    >
      {(control) => (
        <div className="image-picker">
          <div className="image-picker__preview">
            {shown ? (
              <img
                src={shown}
                alt={shown === currentImage ? 'Current picture' : 'New picture preview'}
              />
            ) : (
              <span className="image-picker__empty">No picture</span>
            )}
          </div>
          <input
            {...control}
            type="file"
            accept="image/*"
            className="image-picker__input"
            disabled={disabled || resizing}
            onChange={async (event) => {
              const input = event.currentTarget;
              const file = input.files?.[0];
              if (!file) return;
              setResizing(true);
              try {
                const resized = await resizeImageToPng(file);
                setPreview({ blob: resized, url: await toDataUrl(resized) });
                onChange(resized);
                onError(undefined);
              } catch (cause) {
                input.value = '';
                setPreview(null);
                onChange(null);
                onError(cause instanceof Error ? cause.message : 'This picture cannot be used.');
              } finally {
                setResizing(false);
              }
            }}
          />
        </div>
      )}
    </Field>
  );
}
