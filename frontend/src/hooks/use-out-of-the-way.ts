import { useEffect, useState, type RefObject } from 'react';

/**
 * What the floating buttons (the help chat, Live Chats) never cover: the page's forms, whatever
 * a page marks with `data-keep-clear` (the checkout's total, the order's Roblox name and avatar),
 * and every control inside what a page marks `data-keep-controls-clear` (the staff's delivery
 * queue: each of its buttons and links must take its own tap, issue 34).
 */
export const KEEP_CLEAR_SELECTOR = [
  'form',
  '[data-keep-clear]',
  '[data-keep-controls-clear] :is(a[href], button, input, select, textarea, summary)',
].join(', ');

/** Room kept around the button, in px: content this close counts as under it. */
const MARGIN_PX = 8;

/**
 * Whether something the shopper needs is under the fixed element `ref` (a floating button): then
 * it steps aside (issue 23: on phones it hid the checkout's total, the Roblox avatar preview and
 * the order page's Roblox name). Watches the elements of {@link KEEP_CLEAR_SELECTOR} that
 * cross the button's own rectangle of the screen, as the page scrolls and changes.
 */
export function useOutOfTheWay(ref: RefObject<HTMLElement | null>, enabled: boolean): boolean {
  const [covering, setCovering] = useState(false);

  useEffect(() => {
    const button = ref.current;
    if (!enabled || !button || typeof IntersectionObserver === 'undefined') {
      setCovering(false);
      return undefined;
    }
    const under = new Set<Element>();
    const watched = new Set<Element>();
    let observer: IntersectionObserver | null = null;
    let frame = 0;

    const update = () => setCovering(under.size > 0);

    /** Follows the marked elements the page has now: new ones watched, gone ones dropped. */
    const follow = () => {
      frame = 0;
      if (!observer) return;
      const now = new Set(
        [...document.querySelectorAll(KEEP_CLEAR_SELECTOR)].filter(
          // the chat's own window is above the button, never under it
          (element) => !element.closest('.chat-window'),
        ),
      );
      let dropped = false;
      for (const element of watched) {
        if (now.has(element)) continue;
        observer.unobserve(element);
        watched.delete(element);
        dropped = under.delete(element) || dropped;
      }
      for (const element of now) {
        if (watched.has(element)) continue;
        watched.add(element);
        observer.observe(element);
      }
      if (dropped) update();
    };

    /** (Re)starts watching the button's rectangle of the screen, as it is now. */
    const start = () => {
      observer?.disconnect();
      watched.clear();
      under.clear();
      // The button's place on the screen (it only fades while away, so it keeps its place).
      const box = button.getBoundingClientRect();
      const width = document.documentElement.clientWidth;
      const height = window.innerHeight;
      const inset = (px: number) => `${-Math.max(0, Math.floor(px - MARGIN_PX))}px`;
      observer = new IntersectionObserver(
        (entries) => {
          for (const entry of entries) {
            if (entry.isIntersecting) under.add(entry.target);
            else under.delete(entry.target);
          }
          update();
        },
        {
          rootMargin: [
            inset(box.top),
            inset(width - box.right),
            inset(height - box.bottom),
            inset(box.left),
          ].join(' '),
        },
      );
      follow();
      update();
    };
    const soon = () => {
      if (!frame) frame = requestAnimationFrame(follow);
    };

    start();
    // pages come and go without a reload, and forms appear (a modal, a toggled form)
    const changes = new MutationObserver(soon);
    changes.observe(document.body, { childList: true, subtree: true });
    window.addEventListener('resize', start);
    return () => {
      cancelAnimationFrame(frame);
      changes.disconnect();
      window.removeEventListener('resize', start);
      observer?.disconnect();
    };
  }, [ref, enabled]);

  return enabled && covering;
}
