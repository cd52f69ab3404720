import type { TFunction } from 'i18next';
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { ApiError, fieldErrors } from '@/lib/api-client';

import { useSendVerificationCode } from '@/features/auth/api/send-verification-code';
import { useVerifyCode } from '@/features/auth/api/verify-code';
import { useCountdown } from '@/features/auth/hooks/use-countdown';
import type { Registration } from '@/features/auth/types';
import { formErrorMessage } from '@/features/auth/utils/form-errors';
import { FormMessage } from './form-message';
import './form-field.css';

export const VERIFICATION_CODE_LENGTH = 6;
/** How long the success message shows before the shop opens (docs/product.md, Constants and limits). */
export const REDIRECT_AFTER_VERIFY_MS = 1500;

/** A wrong or expired code, too many attempts, or the address taken meanwhile: say which. */
function verifyErrorMessage(t: TFunction<'pages'>, error: unknown): string {
  const invalid = t('auth.verify.invalid');
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    const fields = fieldErrors(error);
    return fields.code ?? Object.values(fields)[0] ?? (error.message || invalid);
  }
  return formErrorMessage(error, invalid);
}

type Notice = { tone: 'error' | 'success'; text: string };

type VerifyEmailFormProps = {
  registration: Registration;
  resendAfter: number;
  /** Called 1.5 s after a successful verification (the user is logged in by then). */
  onVerified: () => void;
};

/** The code's digits only, at most VERIFICATION_CODE_LENGTH of them. */
function CodeField({
  inputRef,
  code,
  onChange,
  disabled,
  error,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  code: string;
  onChange: (code: string) => void;
  disabled: boolean;
  error: string | undefined;
}) {
  const { t } = useTranslation('pages');
  return (
    <Field className="verify-code" label={t('auth.verify.code')} error={error} announceError>
      {(control) => (
        <input
          {...control}
          ref={inputRef}
          className="field__input"
          type="text"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={VERIFICATION_CODE_LENGTH}
          required
          autoFocus
          disabled={disabled}
          value={code}
          onChange={(event) =>
            onChange(event.target.value.replace(/\D/g, '').slice(0, VERIFICATION_CODE_LENGTH))
          }
        />
      )}
    </Field>
  );
}

export function VerifyEmailForm({ registration, resendAfter, onVerified }: VerifyEmailFormProps) {
  const { t } = useTranslation('pages');
  const inputRef = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [notice, setNotice] = useState<Notice | null>(null);
  const verify = useVerifyCode();
  const resend = useSendVerificationCode();
  const { secondsLeft, restart } = useCountdown(resendAfter);
  const verified = verify.isSuccess;

  useEffect(() => {
    if (!verified) return;
    const timer = window.setTimeout(onVerified, REDIRECT_AFTER_VERIFY_MS);
    return () => window.clearTimeout(timer);
  }, [verified, onVerified]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setNotice(null);
    verify.mutate({ ...registration, code }, { onError: () => inputRef.current?.select() });
  };

  const resendCode = () => {
    setNotice(null);
    resend.mutate(registration, {
      onSuccess: (response) => {
        verify.reset();
        restart(response.resend_after);
        setCode('');
        setNotice({ tone: 'success', text: response.message });
        inputRef.current?.focus();
      },
      onError: (error) =>
        setNotice({
          tone: 'error',
          text: formErrorMessage(error, t('auth.verify.resendFailed')),
        }),
    });
  };

  return (
    <form className="auth-form" onSubmit={submit}>
      {verified ? <FormMessage tone="success">{t('auth.verify.verified')}</FormMessage> : null}
      {notice ? <FormMessage tone={notice.tone}>{notice.text}</FormMessage> : null}
      <CodeField
        inputRef={inputRef}
        code={code}
        onChange={setCode}
        disabled={verified}
        error={verify.isError ? verifyErrorMessage(t, verify.error) : undefined}
      />
      <div className="auth-form__actions">
        <Button type="submit" size="lg" fullWidth loading={verify.isPending} disabled={verified}>
          {t('auth.verify.submit')}
        </Button>
        <Button
          variant="secondary"
          fullWidth
          onClick={resendCode}
          loading={resend.isPending}
          disabled={secondsLeft > 0 || verified}
        >
          {secondsLeft > 0
            ? t('auth.verify.resendIn', { count: secondsLeft })
            : t('auth.verify.resend')}
        </Button>
      </div>
    </form>
  );
}
