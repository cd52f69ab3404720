import { useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { useDeleteMyAccount, useDownloadMyData } from '@/features/profile/api/privacy';
import { ApiError, errorMessage, fieldErrors } from '@/lib/api-client';

import './your-data.css';

type YourDataProps = {
  /** The account is gone (the server ended every session of it). */
  onAccountDeleted: () => void;
};

/** The privacy policy's promise on /profile: download your data, delete your account. */
export function YourData({ onAccountDeleted }: YourDataProps) {
  const download = useDownloadMyData();
  const [password, setPassword] = useState('');
  const remove = useDeleteMyAccount();
  const fields = fieldErrors(remove.error);
  const formError =
    remove.error && !fields.password
      ? remove.error instanceof ApiError
        ? remove.error.message
        : errorMessage(remove.error)
      : undefined;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    remove.mutate(password, {
      onSuccess: onAccountDeleted,
    });
  }

  return (
    <section className="your-data" aria-labelledby="your-data-title">
      <h2 id="your-data-title" className="your-data__title">
        Your data
      </h2>
      <div className="your-data__block">
        <p>Download everything we keep about you: your profile, your orders and your help chats.</p>
        <Button variant="secondary" loading={download.isPending} onClick={() => download.mutate()}>
          Download my data
        </Button>
      </div>
      <form className="your-data__block your-data__delete" onSubmit={onSubmit} noValidate>
        <h3 className="your-data__subtitle">Delete my account</h3>
        <p>
          Your account and your help chats are deleted for good. Orders are kept for our books
          without your e-mail address or names. Orders still waiting for payment or delivery must be
          finished first.
        </p>
        <Field label="Your password" error={fields.password} announceError>
          {(control) => (
            <input
              {...control}
              className="form-control"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </Field>
        {formError ? (
          <p className="your-data__error" role="alert">
            {formError}
          </p>
        ) : null}
        <Button type="submit" variant="danger" loading={remove.isPending}>
          Delete my account
        </Button>
      </form>
    </section>
  );
}
