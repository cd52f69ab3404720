import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { fieldErrors } from '@/lib/api-client';

import { useProofChoices } from '@/features/admin-orders/api/get-proof-choices';
import { useUploadProof } from '@/features/admin-orders/api/upload-proof';
import type { AdminOrder } from '@/features/admin-orders/types';

import './deliver-dialog.css';

/** What the order holds, as a proof's "items" line: "2 × Raccoon, 1 × Golden Bee". */
export function itemsLine(order: Pick<AdminOrder, 'items'>): string {
  return order.items.map((item) => `${item.qty} × ${item.name}`).join(', ');
}

/**
 * Pictures of the delivery uploaded from the dialog (POST /api/proofs, as the proofs page does),
 * then chosen as the order's proof: staff never leave the queue for /proofs and back.
 */
function ProofUpload({
  order,
  onUploaded,
}: {
  order: AdminOrder;
  onUploaded: (id: number) => void;
}) {
  const upload = useUploadProof();
  const [items, setItems] = useState(() => itemsLine(order));
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const send = () => {
    const next: Record<string, string> = {};
    if (!items.trim()) next.items = 'Say what was delivered.';
    if (files.length === 0) next.images = 'Choose at least one picture of the delivery.';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    upload.mutate(
      { items: items.trim(), images: files },
      {
        onSuccess: (proof) => {
          setFiles([]);
          onUploaded(proof.id);
        },
        onError: (failure) => {
          const fields = fieldErrors(failure);
          setErrors(
            Object.keys(fields).length > 0
              ? fields
              : { images: 'The pictures could not be uploaded. Try again.' },
          );
        },
      },
    );
  };

  return (
    <fieldset className="proof-upload">
      <legend className="proof-upload__legend">Upload a new proof</legend>
      <Field label="Items delivered" error={errors.items}>
        {(control) => (
          <input
            {...control}
            className="form-control"
            type="text"
            maxLength={500}
            value={items}
            onChange={(event) => setItems(event.currentTarget.value)}
          />
        )}
      </Field>
      <Field
        label="Pictures"
        hint="Screenshots of the trade: PNG, JPEG, WebP or GIF, up to 10."
        error={errors.images}
      >
        {(control) => (
          <input
            {...control}
            className="proof-upload__file"
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            multiple
            onChange={(event) => setFiles(Array.from(event.currentTarget.files ?? []))}
          />
        )}
      </Field>
      <Button variant="secondary" loading={upload.isPending} onClick={send}>
        Upload proof
      </Button>
    </fieldset>
  );
}

/**
 * "Mark delivered": optionally with a proof of delivery, chosen among the published ones or
 * uploaded here and then chosen.
 */
export function DeliverDialog({
  order,
  onClose,
  onConfirm,
  pending,
}: {
  order: AdminOrder;
  onClose: () => void;
  onConfirm: (proofId: number | null) => void;
  pending: boolean;
}) {
  const proofs = useProofChoices({ enabled: true });
  const [proofId, setProofId] = useState('');
  const [uploaded, setUploaded] = useState<number | null>(null);
  return (
    <Modal
      open
      onClose={onClose}
      title={`Mark order #${order.id} delivered`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button loading={pending} onClick={() => onConfirm(proofId ? Number(proofId) : null)}>
            Mark delivered
          </Button>
        </>
      }
    >
      <p>
        Deliver to <strong>{order.roblox_username ?? 'the buyer'}</strong> in game first. Link a
        proof of delivery: one you posted, or upload the pictures here.
      </p>
      <Field
        label="Proof of delivery"
        optional
        hint={
          proofs.isError
            ? 'The proofs could not be loaded; you can deliver without one.'
            : uploaded !== null && String(uploaded) === proofId
              ? `Proof #${uploaded} is uploaded and chosen.`
              : undefined
        }
      >
        {(control) => (
          <select
            {...control}
            className="form-control"
            value={proofId}
            disabled={proofs.isPending}
            onChange={(event) => setProofId(event.currentTarget.value)}
          >
            <option value="">No proof</option>
            {(proofs.data ?? []).map((proof) => (
              <option key={proof.id} value={proof.id}>
                {`#${proof.id} · ${proof.items}`}
              </option>
            ))}
          </select>
        )}
      </Field>
      <ProofUpload
        order={order}
        onUploaded={(id) => {
          setUploaded(id);
          setProofId(String(id));
        }}
      />
    </Modal>
  );
}
