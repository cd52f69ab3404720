import { useTranslation } from 'react-i18next';
import { useRef, useState } from 'react';

import { Field } from '@/components/ui/field';
import { useLookupRobloxAvatar } from '@/features/checkout/api/lookup-roblox-avatar';
import { ApiError } from '@/lib/api-client';

export type RobloxPreview = { username: string; avatarUrl: string };

type RobloxUsernameFieldProps = {
  value: string;
  onChange: (value: string) => void;
  preview: RobloxPreview | null;
  onPreviewChange: (preview: RobloxPreview | null) => void;
  /** The checkout's own message for the field (missing, or the server's 422 at payment). */
  error?: string;
};

/**
 * Why the server refused the name, when it says so about the name itself: unknown (404) or
 * malformed (422). A busy or unreachable Roblox (429, 502, no answer) says nothing about it.
 */
function reasonAgainst(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 404) return error.message;
  if (error.status === 422) return error.errors.username?.[0] ?? error.message;
  return null;
}

/**
 * The Roblox username, looked up when the field loses focus (not when empty or unchanged): the
 * canonical name replaces what was typed and the avatar shows beside it. A failed lookup clears
 * the preview and, when the server says what is wrong with the name, shows its reason under the
 * field; the name typed stays.
 */
export function RobloxUsernameField({
  value,
  onChange,
  preview,
  onPreviewChange,
  error,
}: RobloxUsernameFieldProps) {
  const { t } = useTranslation();
  const [refused, setRefused] = useState<{ username: string; reason: string } | null>(null);
  const lookup = useLookupRobloxAvatar();
  const lastLookedUp = useRef<string | null>(preview?.username ?? null);
  const latestRequest = useRef(0);

  const lookUp = async () => {
    const username = value.trim();
    if (!username || username === lastLookedUp.current) return;
    lastLookedUp.current = username;
    const request = ++latestRequest.current;
    setRefused(null);
    try {
      const found = await lookup.mutateAsync(username);
      if (request !== latestRequest.current) return;
      lastLookedUp.current = found.username;
      onChange(found.username);
      // Roblox has no headshot for some accounts (pending or moderated): no picture to show then
      onPreviewChange(
        found.avatar_url ? { username: found.username, avatarUrl: found.avatar_url } : null,
      );
    } catch (failure) {
      if (request !== latestRequest.current) return;
      onPreviewChange(null);
      const reason = reasonAgainst(failure);
      if (reason) setRefused({ username, reason });
    }
  };

  return (
    <Field
      label={t('checkout.roblox.label')}
      hint={t('checkout.roblox.hint')}
      hintPosition="above"
      // the checkout's message first; else the server's reason, while the name is the one refused
      error={error ?? (refused?.username === value.trim() ? refused.reason : undefined)}
      aside={
        preview ? (
          <img
            className="roblox-avatar"
            src={preview.avatarUrl}
            alt={t('checkout.roblox.avatar', { name: preview.username })}
            width={48}
            height={48}
          />
        ) : lookup.isPending ? (
          <span className="roblox-avatar roblox-avatar--loading" aria-hidden="true" />
        ) : null
      }
    >
      {(control) => (
        <input
          {...control}
          className="checkout-field__input"
          type="text"
          name="roblox_username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={value}
          onChange={(event) => {
            onChange(event.target.value);
            if (preview && event.target.value.trim() !== preview.username) onPreviewChange(null);
          }}
          onBlur={() => void lookUp()}
          aria-busy={lookup.isPending || undefined}
        />
      )}
    </Field>
  );
}
