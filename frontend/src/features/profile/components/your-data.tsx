import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

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
  const { t } = useTranslation('pages');
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
        {t('yourData.title')}
      </h2>
      <div className="your-data__block">
        <p>{t('yourData.downloadText')}</p>
        <Button variant="secondary" loading={download.isPending} onClick={() => download.mutate()}>
          {t('yourData.download')}
        </Button>
      </div>
      <form className="your-data__block your-data__delete" onSubmit={onSubmit} noValidate>
        <h3 className="your-data__subtitle">{t('yourData.delete')}</h3>
        <p>{t('yourData.deleteText')}</p>
        <Field label={t('yourData.password')} error={fields.password} announceError>
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
          {t('yourData.delete')}
        </Button>
      </form>
    </section>
  );
}
