import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { ApiError, errorMessage, fieldErrors } from '@/lib/api-client';

import { usePrivateServer } from '@/features/admin-orders/api/get-private-server';
import { useRemovePrivateServer } from '@/features/admin-orders/api/remove-private-server';
import { useSavePrivateServer } from '@/features/admin-orders/api/save-private-server';

import './private-server-panel.css';

/** Why the form was asked for: a claim refused for want of a link, with the server's sentence. */
export type PrivateServerPrompt = { message: string };

type PrivateServerPanelProps = {
  /** A new prompt opens the form, shows its message and focuses the link. */
  prompt: PrivateServerPrompt | null;
};

/** The message of a failed save to show under the field: its `errors.url`, else a 422's message. */
function saveError(error: unknown): string | undefined {
  const url = fieldErrors(error).url;
  if (url) return url;
  return error instanceof ApiError && error.status === 422 ? error.message : undefined;
}

/**
 * "Your private server link": the game server staff meet buyers in. Claiming an order needs one,
 * so it sits above the queue, open while no link is set and folded away once one is.
 */
/** The saved link, or that there is none, or why it could not be loaded. */
function LinkStatus({ server }: { server: ReturnType<typeof usePrivateServer> }) {
  if (server.isPending) return <p className="private-server__status">Loading your link…</p>;
  if (server.isError) {
    return (
      <div className="private-server__status private-server__status--error" role="alert">
        <p>Your link could not be loaded: {errorMessage(server.error)}</p>
        <Button variant="ghost" size="sm" onClick={() => void server.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  const current = server.data.url;
  if (current) {
    return (
      <p className="private-server__status">
        <a href={current} target="_blank" rel="noreferrer" className="private-server__link">
          {current}
        </a>
      </p>
    );
  }
  return (
    <p className="private-server__status private-server__status--missing">
      Not set. You need it to claim an order.
    </p>
  );
}

function LinkField({
  inputRef,
  value,
  error,
  onChange,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <Field
      label="Private server link"
      error={error}
      hint="Your Roblox private server's share link. Buyers see it once you claim their order."
    >
      {(control) => (
        <input
          {...control}
          ref={inputRef}
          className="form-control"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          maxLength={300}
          placeholder="https://www.roblox.com/share?code=…&type=Server"
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** Set, change or remove the link; folds itself away (`onSaved`) once one is saved. */
function LinkForm({
  formId,
  open,
  current,
  prompt,
  onSaved,
}: {
  formId: string;
  open: boolean;
  current: string | null;
  prompt: PrivateServerPanelProps['prompt'];
  onSaved: () => void;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const save = useSavePrivateServer();
  const remove = useRemovePrivateServer();
  const [draft, setDraft] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    if (prompt) inputRef.current?.focus();
  }, [prompt]);

  const value = draft ?? current ?? '';
  const error =
    (missing ? 'Enter your private server link.' : undefined) ??
    saveError(save.error) ??
    (current === null ? prompt?.message : undefined);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const url = value.trim();
    setMissing(!url);
    // Folding the saved form is this form's own business; the toast is the mutation's.
    if (url)
      save.mutate(url, {
        onSuccess: () => {
          setDraft(null);
          onSaved();
        },
      });
  };

  return (
    <form
      id={formId}
      className="private-server__form"
      hidden={!open}
      noValidate
      onSubmit={onSubmit}
    >
      <LinkField
        inputRef={inputRef}
        value={value}
        error={error}
        onChange={(next) => {
          setDraft(next);
          setMissing(false);
          save.reset();
        }}
      />
      <div className="private-server__actions">
        <Button type="submit" size="sm" loading={save.isPending} disabled={remove.isPending}>
          Save link
        </Button>
        {current ? (
          <Button
            variant="ghost"
            size="sm"
            loading={remove.isPending}
            disabled={save.isPending}
            onClick={() => remove.mutate(undefined, { onSuccess: () => setDraft(null) })}
          >
            Remove link
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/**
 * "Your private server link": the game server staff meet buyers in. Claiming an order needs one,
 * so it sits above the queue, open while no link is set and folded away once one is.
 */
export function PrivateServerPanel({ prompt }: PrivateServerPanelProps) {
  const titleId = useId();
  const formId = useId();
  const server = usePrivateServer();
  const [expanded, setExpanded] = useState<boolean | null>(null);
  const [seenPrompt, setSeenPrompt] = useState(prompt);

  if (prompt !== seenPrompt) {
    setSeenPrompt(prompt);
    if (prompt) setExpanded(true);
  }

  const current = server.data?.url ?? null;
  // Until staff choose, the form is open exactly while no link is set.
  const open = expanded ?? (server.isSuccess && current === null);

  return (
    <section className="private-server" aria-labelledby={titleId}>
      <div className="private-server__head">
        <div className="private-server__summary">
          <h2 id={titleId} className="private-server__title">
            Your private server link
          </h2>
          <LinkStatus server={server} />
        </div>
        {server.isSuccess ? (
          <Button
            variant="secondary"
            size="sm"
            aria-expanded={open}
            aria-controls={formId}
            onClick={() => setExpanded(!open)}
          >
            {open ? 'Hide' : current ? 'Change link' : 'Set link'}
          </Button>
        ) : null}
      </div>
      <LinkForm
        formId={formId}
        open={open}
        current={current}
        prompt={prompt}
        onSaved={() => setExpanded(false)}
      />
    </section>
  );
}
