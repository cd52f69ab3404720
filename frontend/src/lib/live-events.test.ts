import { QueryClient } from '@tanstack/react-query';

import { connectLiveEvents, isLive, resumeEventsFrom } from '@/lib/live-events';

/** A stand-in for the browser's EventSource (jsdom has none): the test plays the server. */
class FakeEventSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  static opened: FakeEventSource[] = [];

  readyState = FakeEventSource.OPEN;
  onerror: (() => void) | null = null;
  private readonly handlers = new Map<string, Array<(event: MessageEvent<string>) => void>>();

  readonly url: string;

  constructor(url: string) {
    this.url = url;
    FakeEventSource.opened.push(this);
  }

  addEventListener(type: string, handler: (event: MessageEvent<string>) => void) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The server sends an event. */
  emit(type: string, data: unknown, lastEventId = '') {
    const event = new MessageEvent<string>(type, { data: JSON.stringify(data), lastEventId });
    this.handlers.get(type)?.forEach((handler) => handler(event));
  }
}

/** The stream opened `nth` (from 0). */
function opened(nth: number): FakeEventSource {
  const stream = FakeEventSource.opened[nth];
  if (!stream) throw new Error(`no stream number ${nth} was opened`);
  return stream;
}

function seededClient(): QueryClient {
  const client = new QueryClient();
  client.setQueryData(['products'], []);
  client.setQueryData(['profile'], {});
  return client;
}

const invalidated = (client: QueryClient, key: string) =>
  client.getQueryState([key])?.isInvalidated ?? false;

describe('connectLiveEvents', () => {
  beforeEach(() => {
    FakeEventSource.opened = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('resumes from the page’s event number and refetches nothing when the stream comes up', () => {
    const client = seededClient();
    resumeEventsFrom(41);
    const close = connectLiveEvents({ queryClient: client, staff: false, chatSession: null });
    const stream = opened(0);
    expect(new URL(stream.url, 'http://shop.test').searchParams.get('last_event_id')).toBe('41');

    stream.emit('ready', { resumed: true });
    expect(isLive()).toBe(true);
    expect(invalidated(client, 'products')).toBe(false);
    expect(invalidated(client, 'profile')).toBe(false);

    // what changed while the page loaded arrives as an event
    stream.emit('order', { order_id: 7, status: 'paid' }, '42');
    expect(invalidated(client, 'profile')).toBe(true);
    close();
    expect(isLive()).toBe(false);
  });

  it('catches up on everything when the stream comes back after being down', () => {
    const client = seededClient();
    resumeEventsFrom(41);
    const close = connectLiveEvents({ queryClient: client, staff: false, chatSession: null });
    const stream = opened(0);
    stream.emit('ready', { resumed: true });
    stream.onerror?.();
    expect(isLive()).toBe(false);
    client.setQueryData(['products'], []);

    // the browser reconnected by itself (with Last-Event-ID); polling ran meanwhile
    stream.emit('ready', { resumed: true });
    expect(isLive()).toBe(true);
    expect(invalidated(client, 'products')).toBe(true);
    close();
  });

  it('starts fresh, and catches up, when the page gave no event number', () => {
    const client = seededClient();
    const close = connectLiveEvents({ queryClient: client, staff: false, chatSession: null });
    const stream = opened(0);
    expect(new URL(stream.url, 'http://shop.test').searchParams.has('last_event_id')).toBe(false);
    stream.emit('ready', { resumed: false }, '41');
    expect(invalidated(client, 'products')).toBe(true);
    close();
  });

  it('uses the page’s number once: a stream opened later starts fresh', () => {
    resumeEventsFrom(41);
    connectLiveEvents({ queryClient: seededClient(), staff: false, chatSession: null })();
    const client = seededClient();
    const close = connectLiveEvents({ queryClient: client, staff: true, chatSession: null });
    const second = opened(1);
    expect(new URL(second.url, 'http://shop.test').searchParams.has('last_event_id')).toBe(false);
    second.emit('ready', { resumed: false }, '43');
    expect(invalidated(client, 'products')).toBe(true);
    close();
  });
});
