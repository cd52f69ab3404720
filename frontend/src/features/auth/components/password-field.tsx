import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { Field } from '@/components/ui/field';
import { IconButton } from '@/components/ui/icon-button';

import './form-field.css';

type PasswordFieldProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'type' | 'className' | 'aria-invalid' | 'aria-describedby'
> & {
  label: string;
  /** The first server message for this field; marks the input invalid. */
  error?: string;
  hint?: ReactNode;
};

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg
      width={20}
      height={20}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
      {crossed ? <path d="M3 3l18 18" /> : null}
    </svg>
  );
}

/**
 * A password input with a show/hide toggle, in the shared Field. The toggle is a button named
 * after the field ("Show password", "Hide confirm password"), so it is clear which field it
 * reveals.
 */
export function PasswordField({ label, error, hint, ...inputProps }: PasswordFieldProps) {
  const { t, i18n } = useTranslation('pages');
  const [visible, setVisible] = useState(false);
  // "Show password", "Mostrar contraseña"; German writes its nouns capitalised
  const language = i18n.resolvedLanguage ?? 'en';
  const field = language === 'de' ? label : label.toLocaleLowerCase(language);
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      hintPosition="above"
      announceError
      aside={
        <div className="field__end">
          <IconButton
            label={visible ? t('auth.hideField', { field }) : t('auth.showField', { field })}
            size="sm"
            onClick={() => setVisible((shown) => !shown)}
          >
            <EyeIcon crossed={visible} />
          </IconButton>
        </div>
      }
    >
      {(control) => (
        <input
          {...control}
          type={visible ? 'text' : 'password'}
          className="field__input field__input--with-end"
          autoCapitalize="off"
          spellCheck={false}
          {...inputProps}
        />
      )}
    </Field>
  );
}
