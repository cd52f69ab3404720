import type { ChatMessage } from '@/types/api';

/**
 * The server's history plus the messages this window already holds that are newer than all of
 * it (a poll that left before a send came back): nothing flickers away, nothing shows twice.
 */
export function mergeMessages(
  server: readonly ChatMessage[],
  local: readonly ChatMessage[],
): ChatMessage[] {
  const newestOnServer = server.reduce((max, message) => Math.max(max, message.id), -Infinity);
  const known = new Set(server.map((message) => message.id));
  const newer = local.filter((message) => message.id > newestOnServer && !known.has(message.id));
  return [...server, ...newer];
}

/** Adds messages that are not there yet (by id), keeping the order they arrived in. */
export function appendMessages(
  current: readonly ChatMessage[],
  added: ReadonlyArray<ChatMessage | null | undefined>,
): ChatMessage[] {
  const known = new Set(current.map((message) => message.id));
  const fresh = added.filter(
    (message): message is ChatMessage => message != null && !known.has(message.id),
  );
  return [...current, ...fresh];
}
