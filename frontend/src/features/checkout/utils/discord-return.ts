/**
 * Where /discord/callback returns once the code is exchanged, when the link did not start on the
 * checkout (a drop's page asks for it ahead of the release). Kept for this tab only
 * (sessionStorage) across the trip to Discord; nothing stored means /checkout, as before.
 */
export const DISCORD_RETURN_KEY = 'discord_return_to';

/**
 * A path on this site only: one leading "/" and never "//" or "/\" (which browsers read as
 * another host), nor control characters.
 */
export function isSafeReturnPath(path: unknown): path is string {
  return (
    typeof path === 'string' &&
    path.startsWith('/') &&
    path[1] !== '/' &&
    path[1] !== '\\' &&
    // eslint-disable-next-line no-control-regex
    !/[\u0000-\u001f\u007f]/.test(path)
  );
}

/** Remembers `path` before the shopper leaves for Discord (an unsafe one is not kept). */
export function rememberDiscordReturn(path: string): void {
  try {
    if (isSafeReturnPath(path)) sessionStorage.setItem(DISCORD_RETURN_KEY, path);
    else sessionStorage.removeItem(DISCORD_RETURN_KEY);
  } catch {
    // storage refused (private mode): the callback returns to /checkout, as before
  }
}

/** Forgets it: the checkout's own link returns to the checkout, whatever an earlier try left. */
export function forgetDiscordReturn(): void {
  try {
    sessionStorage.removeItem(DISCORD_RETURN_KEY);
  } catch {
    // nothing was kept
  }
}

/** The remembered path when it is safe, else null; reading does not forget it. */
export function rememberedDiscordReturn(): string | null {
  try {
    const path = sessionStorage.getItem(DISCORD_RETURN_KEY);
    return isSafeReturnPath(path) ? path : null;
  } catch {
    return null;
  }
}
