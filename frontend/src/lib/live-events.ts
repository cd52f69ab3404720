import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';

import { env } from '@/config/env';

/**
 * Server push: one EventSource (`GET /api/events`) for the whole app. Each event says what
 * changed (a chat, an order, the product list); the matching react-query caches are
 * invalidated, so the open screens refetch the calls they already make. While the stream is
 * up, the spec's polling stops ({@link pollWhileDown}); whenever it is down, polling runs at
 * the spec's intervals and the stream is tried again.
 */

type Listener = () => void;

/** Products are refetched at most this often, however many stock changes arrive. */
const PRODUCTS_THROTTLE_MS = 1000;
/** Reopening a stream the server refused or lost: from this, doubling, up to the max. */
const RETRY_MIN_MS = 3000;
const RETRY_MAX_MS = 30_000;
/** A test switch (browser tests only): `localStorage['garden-shop:poll'] = 'off'`. */
const POLL_SWITCH_KEY = 'garden-shop:poll';

export type LiveOptions = {
  queryClient: QueryClient;
  /** Ask for the staff stream (every live chat, the delivery queue). */
  staff: boolean;
  /** The browser's help chat session id. */
  chatSession: string | null;
  /** An order's link the page holds (see {@link watchOrder}): that order's events too. */
  order?: OrderLink | null;
  /**
   * The server refused the stream (too many open, or busy): the app polls meanwhile and tries
   * again after a growing pause. Called once until a stream is up again.
   */
  onRefused?: () => void;
};

/** The id and key of an order's link (`/orders/{id}?key=…`). */
export type OrderLink = { id: number; key: string };

let live = false;
const listeners = new Set<Listener>();
/** Where the page's own data stands in the event log, for the first stream to resume from. */
let pageEventId: number | null = null;

/**
 * The event number the page was made at (its bootstrap's `events`): the data the page carried
 * holds every event up to it. The next stream opened resumes there, so what changed while the
 * page loaded arrives as events and nothing is refetched when the stream comes up.
 */
export function resumeEventsFrom(id: number): void {
  pageEventId = id;
}

function setLive(next: boolean, queryClient: QueryClient | null) {
  if (live === next) return;
  live = next;
  listeners.forEach((listener) => listener());
  // Either way the polled screens catch up now: coming up, on what happened while polling
  // (and their next refetch interval turns off); going down, polling starts from here.
  if (queryClient) refetchEverythingLive(queryClient);
}

let watched: OrderLink | null = null;
const watchedListeners = new Set<Listener>();

/**
 * While a page shows an order opened by its link's key, the app's stream carries that order's
 * events too (`?order=&key=`: a browser that did not place the order and is not its owner's).
 * The stream reopens with it; returns how to stop watching.
 */
export function watchOrder(link: OrderLink): () => void {
  watched = link;
  watchedListeners.forEach((listener) => listener());
  return () => {
    if (watched !== link) return;
    watched = null;
    watchedListeners.forEach((listener) => listener());
  };
}

/** The order link the stream should carry, if a page watches one. */
export function watchedOrder(): OrderLink | null {
  return watched;
}

export function subscribeWatchedOrder(listener: Listener): () => void {
  watchedListeners.add(listener);
  return () => watchedListeners.delete(listener);
}

/** Whether the stream is up now. */
export function isLive(): boolean {
  return live;
}

export function subscribeLive(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function pollingSwitchedOff(): boolean {
  try {
    return window.localStorage.getItem(POLL_SWITCH_KEY) === 'off';
  } catch {
    return false;
  }
}

/**
 * A `refetchInterval` that polls every `ms` only while the stream is down:
 * `refetchInterval: pollWhileDown(3000)`.
 */
export function pollWhileDown(ms: number): () => number | false {
  return () => (live || pollingSwitchedOff() ? false : ms);
}

/** Every cache an event can touch, for a resync. */
const LIVE_KEYS: QueryKey[] = [
  queryKeys.products,
  queryKeys.chat.all,
  queryKeys.liveChats.all,
  queryKeys.orders.all,
  queryKeys.holdings,
  queryKeys.orderMessages.all,
  queryKeys.profile.all,
  queryKeys.admin.orders.all,
  queryKeys.admin.products,
];

function refetchEverythingLive(queryClient: QueryClient) {
  for (const queryKey of LIVE_KEYS) void queryClient.invalidateQueries({ queryKey });
}

type ChatEvent = { chat_id: string; status: string };
/** `step`: what happened (`claimed`, `ready`, `delivered`, …); the order is refetched either way. */
type OrderEvent = { order_id: number; status: string; step?: string };
/** A message on an order's page, whole: it is added to the order's threads at once. */
type OrderMessageEvent = { order_id: number; message: { id: number } };

/** `thread` with `message` added in id order, unless it holds it already. */
export function withMessage<M extends { id: number }>(thread: M[] | undefined, message: M) {
  if (!thread || thread.some((known) => known.id === message.id)) return thread;
  return [...thread, message].sort((a, b) => a.id - b.id);
}

function parse<T>(event: MessageEvent<string>): T | null {
  try {
    return JSON.parse(event.data) as T;
  } catch {
    return null;
  }
}

const invalidator = (queryClient: QueryClient) => (queryKey: QueryKey) =>
  void queryClient.invalidateQueries({ queryKey });

/** The stream's address: staff, the help chat's session, an order and its key, where to resume. */
function streamUrl({
  staff,
  chatSession,
  order,
  lastEventId,
}: Pick<LiveOptions, 'staff' | 'chatSession'> & {
  order: LiveOptions['order'];
  lastEventId: string;
}): string {
  const query = new URLSearchParams();
  if (staff) query.set('staff', '1');
  if (chatSession) query.set('chat_session', chatSession);
  if (order) {
    query.set('order', String(order.id));
    query.set('key', order.key);
  }
  if (lastEventId) query.set('last_event_id', lastEventId);
  const search = query.toString();
  return `${env.API_URL}/events${search ? `?${search}` : ''}`;
}

/**
 * The product lists refetched at most once per PRODUCTS_THROTTLE_MS, however many events come.
 * The admin's list is left alone while saves of the catalog's order are under way: read back
 * between two of them it would show the first one's order over the later one's for a moment;
 * the last save reads it back (`useReorderProducts`).
 */
function throttledProductsRefetch(queryClient: QueryClient) {
  const invalidate = invalidator(queryClient);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let due = 0;
  return {
    request: () => {
      if (timer !== undefined) return;
      timer = setTimeout(
        () => {
          timer = undefined;
          due = Date.now() + PRODUCTS_THROTTLE_MS;
          invalidate(queryKeys.products);
          if (!queryClient.isMutating({ mutationKey: queryKeys.admin.productOrderSaves })) {
            invalidate(queryKeys.admin.products);
          }
        },
        Math.max(0, due - Date.now()),
      );
    },
    cancel: () => clearTimeout(timer),
  };
}

/** What each kind of event changes in the cache (`ready`, `resync` and `ended` are the stream's own). */
function cacheUpdates(
  queryClient: QueryClient,
  staff: boolean,
  refetchProducts: () => void,
): Record<string, (event: MessageEvent<string>) => void> {
  const invalidate = invalidator(queryClient);
  return {
    products: refetchProducts,
    chat: (event) => {
      const chat = parse<ChatEvent>(event);
      if (!chat) return;
      invalidate(queryKeys.chat.chat(chat.chat_id));
      if (staff) {
        invalidate(queryKeys.liveChats.list());
        invalidate(queryKeys.liveChats.chat(chat.chat_id));
      }
    },
    chat_list: () => {
      if (staff) invalidate(queryKeys.liveChats.list());
    },
    order: (event) => {
      const order = parse<OrderEvent>(event);
      if (!order) return;
      invalidate(queryKeys.orders.order(order.order_id));
      // paid, cancelled, expired or refunded: what the buyer holds of a drop may have changed
      invalidate(queryKeys.holdings);
      invalidate(queryKeys.profile.all);
      if (staff) invalidate(queryKeys.admin.orders.all);
    },
    order_message: (event) => {
      const posted = parse<OrderMessageEvent>(event);
      if (!posted?.message || typeof posted.message.id !== 'number') return;
      queryClient.setQueriesData<Array<{ id: number }>>(
        { queryKey: queryKeys.orderMessages.order(posted.order_id) },
        (thread) => withMessage(thread, posted.message),
      );
    },
  };
}

/** Opens the app's stream; returns how to close it. */
export function connectLiveEvents({
  queryClient,
  staff,
  chatSession,
  order = null,
  onRefused,
}: LiveOptions): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  let source: EventSource | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let retryMs = RETRY_MIN_MS;
  let lastEventId = pageEventId === null ? '' : String(pageEventId);
  /** This stream starts from the page's data (until its first `ready`). */
  let fromPage = pageEventId !== null;
  pageEventId = null;
  let closed = false;
  /** The refusal was told (until the next stream comes up). */
  let refusalTold = false;

  const products = throttledProductsRefetch(queryClient);
  const updates = cacheUpdates(queryClient, staff, products.request);

  const open = () => {
    const stream = new EventSource(streamUrl({ staff, chatSession, order, lastEventId }));
    source = stream;

    const track = (event: MessageEvent<string>) => {
      if (event.lastEventId) lastEventId = event.lastEventId;
    };

    stream.addEventListener('ready', (event: MessageEvent<string>) => {
      track(event);
      retryMs = RETRY_MIN_MS;
      refusalTold = false;
      // Resumed from the page's own data, the missed events follow: nothing to catch up on.
      // Any other time (a fresh start, back after polling) the polled screens refetch now.
      const resumed = parse<{ resumed?: boolean }>(event)?.resumed === true;
      setLive(true, fromPage && resumed ? null : queryClient);
      fromPage = false;
    });
    stream.addEventListener('resync', (event: MessageEvent<string>) => {
      track(event);
      refetchEverythingLive(queryClient);
    });
    for (const [name, update] of Object.entries(updates)) {
      stream.addEventListener(name, (event: MessageEvent<string>) => {
        track(event);
        update(event);
      });
    }
    stream.addEventListener('ended', () => {
      // the server ended it (a staff role was taken away): poll until the session is re-read
      stream.close();
      setLive(false, queryClient);
    });
    stream.onerror = () => {
      setLive(false, queryClient);
      // The browser reconnects by itself (with Last-Event-ID) unless the server refused the
      // stream; then a new one is opened after a growing pause, resuming where it stopped.
      if (stream.readyState === EventSource.CLOSED && !closed) {
        if (!refusalTold) {
          refusalTold = true;
          onRefused?.();
        }
        source = null;
        retryTimer = setTimeout(open, retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      }
    };
  };

  open();
  return () => {
    closed = true;
    clearTimeout(retryTimer);
    products.cancel();
    source?.close();
    source = null;
    setLive(false, null);
  };
}
