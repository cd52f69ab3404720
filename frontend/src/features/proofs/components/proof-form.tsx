import { useEffect, useId, useRef, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { ImageIcon } from '@/components/ui/icons';
import { fieldErrors } from '@/lib/api-client';

import { useCreateProof } from '@/features/proofs/api/create-proof';

export const PROOF_REQUIRED_MESSAGE = 'Please provide items and at least one image.';
export const PROOF_FAILED_MESSAGE = 'Failed to submit proof.';

type ProofFormProps = {
  /** After a proof was added: the page closes the form. */
  onAdded: () => void;
};

type ChosenImage = { file: File; preview: string };

/** The chosen files with object-URL previews, released when the choice changes or on unmount. */
function useChosenImages() {
  const [chosen, setChosen] = useState<ChosenImage[]>([]);
  const latest = useRef(chosen);
  useEffect(() => {
    latest.current = chosen;
  }, [chosen]);
  useEffect(() => () => latest.current.forEach((image) => URL.revokeObjectURL(image.preview)), []);

  const choose = (files: File[]) => {
    latest.current.forEach((image) => URL.revokeObjectURL(image.preview));
    setChosen(files.map((file) => ({ file, preview: URL.createObjectURL(file) })));
  };
  return { chosen, choose };
}

/** The file picker and previews of what was chosen. */
function ImagesField({
  chosen,
  choose,
  error,
}: ReturnType<typeof useChosenImages> & { error: string | undefined }) {
  return (
    <div className="proof-form__images">
      <Field
        label="Images"
        hint="Screenshots of the delivery: PNG, JPEG, WebP or GIF, up to 10."
        hintPosition="above"
        error={error}
      >
        {(control) => (
          <input
            {...control}
            className="proof-form__file"
            type="file"
            accept="image/*"
            multiple
            onChange={(event) => choose(Array.from(event.target.files ?? []))}
          />
        )}
      </Field>
      {chosen.length > 0 ? (
        <ul className="proof-form__previews" aria-label="Chosen images">
          {chosen.map((image) => (
            <li key={image.preview}>
              <img src={image.preview} alt={image.file.name} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="proof-form__empty">
          <ImageIcon size={18} /> No images chosen yet.
        </p>
      )}
    </div>
  );
}

/** Items and one or more images; 'Please provide items and at least one image.' otherwise. */
export function ProofForm({ onAdded }: ProofFormProps) {
  const errorId = useId();
  const create = useCreateProof();
  const [items, setItems] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const itemsRef = useRef<HTMLInputElement>(null);
  const { chosen, choose } = useChosenImages();
  const files = chosen.map((image) => image.file);

  useEffect(() => {
    itemsRef.current?.focus();
  }, []);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = items.trim();
    if (!trimmed || files.length === 0) {
      setError(PROOF_REQUIRED_MESSAGE);
      return;
    }
    setError(null);
    setErrors({});
    create.mutate(
      { items: trimmed, images: files },
      {
        onSuccess: () => {
          setItems('');
          choose([]);
          onAdded();
        },
        onError: (failure) => {
          setError(PROOF_FAILED_MESSAGE);
          setErrors(fieldErrors(failure));
        },
      },
    );
  };

  return (
    <form
      className="proof-form"
      aria-label="Add New Proof"
      noValidate
      onSubmit={submit}
      aria-describedby={error ? errorId : undefined}
    >
      <Field
        label="Items"
        hint="What was delivered, e.g. “Raccoon and 10M Sheckles”."
        hintPosition="above"
        error={errors.items}
      >
        {(control) => (
          <input
            {...control}
            ref={itemsRef}
            className="proof-form__input"
            type="text"
            value={items}
            onChange={(event) => setItems(event.target.value)}
          />
        )}
      </Field>

      <ImagesField chosen={chosen} choose={choose} error={errors.images} />

      {error ? (
        <p className="proof-form__error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}

      <div className="proof-form__actions">
        <Button type="submit" loading={create.isPending}>
          Add Proof
        </Button>
      </div>
    </form>
  );
}
