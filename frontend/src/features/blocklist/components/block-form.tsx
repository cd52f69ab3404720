import { useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { fieldErrors } from '@/lib/api-client';

import { useAddBlock } from '@/features/blocklist/api/blocklist';
import { BLOCK_KINDS, type BlockKind } from '@/features/blocklist/types';

type Errors = Partial<Record<'kind' | 'value' | 'reason', string>>;

/** What the form asks for before anything is sent. */
function missingFields(value: string, reason: string): Errors {
  const found: Errors = {};
  if (!value.trim()) found.value = 'Enter the value to block.';
  if (!reason.trim()) found.reason = 'Say why this is blocked.';
  return found;
}

type KindFieldProps = { kind: BlockKind; error?: string; onChange: (kind: BlockKind) => void };

function KindField({ kind, error, onChange }: KindFieldProps) {
  return (
    <Field label="Kind" error={error}>
      {(control) => (
        <select
          {...control}
          className="form-control"
          value={kind}
          onChange={(event) => onChange(event.currentTarget.value as BlockKind)}
        >
          {BLOCK_KINDS.map((item) => (
            <option key={item.value} value={item.value}>
              {item.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** Adds an entry: what kind, the value, and why. The server normalises and checks the value. */
export function BlockForm() {
  const [kind, setKind] = useState<BlockKind>('email');
  const [value, setValue] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const add = useAddBlock();
  const placeholder = BLOCK_KINDS.find((item) => item.value === kind)?.placeholder;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = missingFields(value, reason);
    setErrors(found);
    if (Object.keys(found).length) return;
    add.mutate(
      { kind, value, reason },
      {
        onSuccess: () => {
          setValue('');
          setReason('');
        },
        onError: (error) => {
          const fields = fieldErrors(error);
          setErrors({ kind: fields.kind, value: fields.value, reason: fields.reason });
        },
      },
    );
  };

  return (
    <form className="block-form" noValidate onSubmit={onSubmit}>
      <KindField
        kind={kind}
        error={errors.kind}
        onChange={(next) => {
          setKind(next);
          setErrors({});
        }}
      />
      <Field label="Value" error={errors.value}>
        {(control) => (
          <input
            {...control}
            className="form-control"
            required
            autoComplete="off"
            spellCheck={false}
            placeholder={placeholder}
            value={value}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              setErrors((current) => ({ ...current, value: undefined }));
            }}
          />
        )}
      </Field>
      <Field label="Reason" error={errors.reason}>
        {(control) => (
          <input
            {...control}
            className="form-control"
            required
            maxLength={200}
            placeholder="e.g. chargeback on order #12"
            value={reason}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setErrors((current) => ({ ...current, reason: undefined }));
            }}
          />
        )}
      </Field>
      <div className="block-form__actions">
        <Button type="submit" loading={add.isPending}>
          Add to blocklist
        </Button>
      </div>
    </form>
  );
}
