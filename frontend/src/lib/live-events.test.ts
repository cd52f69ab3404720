import { QueryClient } from '@tanstack/react-query';

import {
  connectLiveEvents,
  isLive,
  resumeEventsFrom,
  watchedOrder,
  watchOrder,
} from '@/lib/live-events';
import { FakeEventSource, openedStream as opened } from '@/testing/fake-event-source';

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

  it('says once that the server refused the stream, retries, and says it again only after a stream was up', () => {
    vi.useFakeTimers();
    try {
      const refused = vi.fn();
      const close = connectLiveEvents({
        queryClient: seededClient(),
        staff: true,
        chatSession: null,
        onRefused: refused,
      });
      const refuse = (stream: FakeEventSource) => {
        stream.readyState = FakeEventSource.CLOSED;
        stream.onerror?.();
      };
      refuse(opened(0));
      expect(refused).toHaveBeenCalledTimes(1);
      // tried again after a pause, and refused again: nothing more is said
      vi.advanceTimersByTime(3000);
      refuse(opened(1));
      vi.advanceTimersByTime(6000);
      expect(refused).toHaveBeenCalledTimes(1);
      // a dropped connection the browser reopens by itself is no refusal
      opened(2).emit('ready', { resumed: false });
      opened(2).onerror?.();
      expect(refused).toHaveBeenCalledTimes(1);
      opened(2).emit('ready', { resumed: true });
      refuse(opened(2));
      expect(refused).toHaveBeenCalledTimes(2);
      close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves the admin’s product list alone while saves of the catalog’s order are under way', () => {
    vi.useFakeTimers();
    const client = seededClient();
    client.setQueryData(['admin', 'products'], []);
    const close = connectLiveEvents({ queryClient: client, staff: true, chatSession: null });
    try {
      const stream = opened(0);
      stream.emit('ready', { resumed: true });
      const saving = client.getMutationCache().build(client, {
        mutationKey: ['admin', 'products', 'reorder'],
        mutationFn: () => new Promise<void>(() => {}),
      });
      void saving.execute(undefined);
      // both lists as read since the stream's start
      client.setQueryData(['products'], []);
      client.setQueryData(['admin', 'products'], []);

      stream.emit('products', { version: 'a' }, '42');
      vi.advanceTimersByTime(1000); // the products throttle
      expect(invalidated(client, 'products')).toBe(true);
      expect(client.getQueryState(['admin', 'products'])?.isInvalidated).toBe(false);

      // no save under way: both lists are read again
      client.getMutationCache().remove(saving);
      client.setQueryData(['products'], []);
      stream.emit('products', { version: 'b' }, '43');
      vi.advanceTimersByTime(1000); // the products throttle
      expect(invalidated(client, 'products')).toBe(true);
      expect(client.getQueryState(['admin', 'products'])?.isInvalidated).toBe(true);
    } finally {
      close();
      vi.useRealTimers();
    }
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

  it('carries an order’s link and refetches that order, whichever call shows it', () => {
    const client = seededClient();
    client.setQueryData(['orders', 42, 'tracked', 'k3y'], { id: 42 });
    client.setQueryData(['orders', 43, 'tracked', null], { id: 43 });
    const close = connectLiveEvents({
      queryClient: client,
      staff: false,
      chatSession: 'chat-session-1',
      order: { id: 42, key: 'k3y' },
    });
    const stream = opened(0);
    expect(stream.query.get('order')).toBe('42');
    expect(stream.query.get('key')).toBe('k3y');
    expect(stream.query.get('chat_session')).toBe('chat-session-1');
    stream.emit('ready', { resumed: false });
    client.setQueryData(['orders', 42, 'tracked', 'k3y'], { id: 42 });
    client.setQueryData(['orders', 43, 'tracked', null], { id: 43 });

    stream.emit('order', { order_id: 42, status: 'paid', step: 'claimed' });
    expect(client.getQueryState(['orders', 42, 'tracked', 'k3y'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['orders', 43, 'tracked', null])?.isInvalidated).toBe(false);
    close();
  });

  it('opens without order and key when no page watches an order', () => {
    const close = connectLiveEvents({
      queryClient: seededClient(),
      staff: false,
      chatSession: null,
    });
    expect(opened(0).query.has('order')).toBe(false);
    expect(opened(0).query.has('key')).toBe(false);
    close();
  });
});

describe('watchOrder', () => {
  it('holds the link while watched; a later watch is not undone by an earlier stop', () => {
    const stopFirst = watchOrder({ id: 1, key: 'a' });
    expect(watchedOrder()).toEqual({ id: 1, key: 'a' });
    const stopSecond = watchOrder({ id: 2, key: 'b' });
    stopFirst();
    expect(watchedOrder()).toEqual({ id: 2, key: 'b' });
    stopSecond();
    expect(watchedOrder()).toBeNull();
  });
});
