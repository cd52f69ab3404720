import { useRef } from 'react';

import { Field } from '@/components/ui/field';
import { useLookupRobloxAvatar } from '@/features/checkout/api/lookup-roblox-avatar';

export type RobloxPreview = { username: string; avatarUrl: string };

type RobloxUsernameFieldProps = {
  value: string;
  onChange: (value: string) => void;
  preview: RobloxPreview | null;
  onPreviewChange: (preview: RobloxPreview | null) => void;
};

/**
 * The Roblox username, looked up when the field loses focus (not when empty or unchanged): the
 * canonical name replaces what was typed and the avatar shows beside it. A failed lookup only
 * clears the preview; the name typed stays.
 */
export function RobloxUsernameField({
  value,
  onChange,
  preview,
  onPreviewChange,
}: RobloxUsernameFieldProps) {
  const lookup = useLookupRobloxAvatar();
  const lastLookedUp = useRef<string | null>(preview?.username ?? null);
  const latestRequest = useRef(0);

  const lookUp = async () => {
    const username = value.trim();
    if (!username || username === lastLookedUp.current) return;
    lastLookedUp.current = username;
    const request = ++latestRequest.current;
    try {
      const found = await lookup.mutateAsync(username);
      if (request !== latestRequest.current) return;
      lastLookedUp.current = found.username;
      onChange(found.username);
      // Roblox has no headshot for some accounts (pending or moderated): no picture to show then
      onPreviewChange(
        found.avatar_url ? { username: found.username, avatarUrl: found.avatar_url } : null,
      );
    } catch {
      if (request === latestRequest.current) onPreviewChange(null);
    }
  };

  return (
    <Field
      label="Roblox username"
      hint="The account we deliver to in game."
      hintPosition="above"
      aside={
        preview ? (
          <img
            className="roblox-avatar"
            src={preview.avatarUrl}
            alt={`Roblox avatar of ${preview.username}`}
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
