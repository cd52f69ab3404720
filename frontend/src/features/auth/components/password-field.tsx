import { useState } from 'react';

import { IconButton } from '@/components/ui/icon-button';

import { TextField, type TextFieldProps } from './text-field';

type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'endAdornment'>;

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
 * A password input with a show/hide toggle. The toggle is a button named after the field
 * ("Show password", "Hide confirm password"), so it is clear which field it reveals.
 */
export function PasswordField({ label, ...props }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const what = label.toLowerCase();
  return (
    <TextField
      {...props}
      label={label}
      type={visible ? 'text' : 'password'}
      autoCapitalize="off"
      spellCheck={false}
      endAdornment={
        <IconButton
          label={`${visible ? 'Hide' : 'Show'} ${what}`}
          size="sm"
          onClick={() => setVisible((shown) => !shown)}
        >
          <EyeIcon crossed={visible} />
        </IconButton>
      }
    />
  );
}
