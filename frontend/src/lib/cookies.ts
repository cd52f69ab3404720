/** The value of cookie `name` in `cookie` (document.cookie), decoded; undefined when absent. */
export function readCookie(name: string, cookie: string = document.cookie): string | undefined {
  const value = cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name}=`))
    ?.slice(name.length + 1);
  return value === undefined ? undefined : decodeURIComponent(value);
}

/** Keeps a viewer's choice for a year, for every page and the API (path=/, SameSite=Lax). */
export function rememberChoice(name: string, value: string): void {
  const year = 365 * 24 * 60 * 60;
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${year}; SameSite=Lax`;
}
