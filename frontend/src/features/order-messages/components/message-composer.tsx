import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { MESSAGE_MAX_CHARS } from '@/features/order-messages/types';
import { ApiError, errorMessage } from '@/lib/api-client';

type MessageComposerProps = {
  /** The text box's label, e.g. "Message to staff". */
  label: string;
  /** Sends the text; resolves once the server kept it. */
  onSend: (text: string) => Promise<unknown>;
  pending: boolean;
  /** The last failure of a send (the server's words), if any. */
  error: unknown;
};

/** A text box and Send: nothing empty or over 1,000 characters leaves, the server still judges. */
export function MessageComposer({ label, onSend, pending, error }: MessageComposerProps) {
  const { t } = useTranslation('pages');
  const [text, setText] = useState('');
  const trimmed = text.trim();
  const tooLong = trimmed.length > MESSAGE_MAX_CHARS;
  const fieldError =
    error instanceof ApiError && error.status === 422
      ? (error.errors.text?.[0] ?? error.message)
      : tooLong
        ? t('messages.tooLong', { count: MESSAGE_MAX_CHARS })
        : undefined;
  const otherError =
    error && !(error instanceof ApiError && error.status === 422) ? errorMessage(error) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || tooLong || pending) return;
    onSend(trimmed).then(
      () => setText(''),
      () => undefined,
    );
  };

  return (
    <form className="order-messages__composer" onSubmit={submit} noValidate>
      <Field label={label} error={fieldError} announceError>
        {(control) => (
          <textarea
            {...control}
            className="form-control order-messages__input"
            rows={2}
            maxLength={MESSAGE_MAX_CHARS + 200}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) submit(event);
            }}
          />
        )}
      </Field>
      {otherError ? (
        <p className="order-messages__error" role="alert">
          {otherError}
        </p>
      ) : null}
      <Button type="submit" size="sm" loading={pending} disabled={!trimmed || tooLong}>
        {t('messages.send')}
      </Button>
    </form>
  );
}
