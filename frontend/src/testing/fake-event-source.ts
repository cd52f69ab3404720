/** A stand-in for the browser's EventSource (jsdom has none): the test plays the server. */
export class FakeEventSource {
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

  /** The query of the stream's URL. */
  get query(): URLSearchParams {
    return new URL(this.url, 'http://shop.test').searchParams;
  }
}

/** The stream opened `nth` (from 0). */
export function openedStream(nth: number): FakeEventSource {
  const stream = FakeEventSource.opened[nth];
  if (!stream) throw new Error(`no stream number ${nth} was opened`);
  return stream;
}

/** The stream opened last. */
export function lastStream(): FakeEventSource {
  return openedStream(FakeEventSource.opened.length - 1);
}
