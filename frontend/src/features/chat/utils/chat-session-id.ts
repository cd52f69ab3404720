/** The browser's chat session id lives in localStorage under this key (docs/product.md, Data). */
export const CHAT_SESSION_STORAGE_KEY = 'chat_session_id';

/** Kept for the page's lifetime when localStorage is unavailable (private mode, blocked storage). */
let memoryId: string | null = null;

function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // crypto.randomUUID exists only in secure contexts; a version 4 UUID from the same source.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The id that proves a chat is this browser's: generated once, then read back on every call.
 * The server answers 404 for a chat of another session.
 */
export function getChatSessionId(): string {
  try {
    const saved = window.localStorage.getItem(CHAT_SESSION_STORAGE_KEY);
    if (saved) return saved;
    const fresh = memoryId ?? randomUuid();
    window.localStorage.setItem(CHAT_SESSION_STORAGE_KEY, fresh);
    return fresh;
  } catch {
    memoryId ??= randomUuid();
    return memoryId;
  }
}
