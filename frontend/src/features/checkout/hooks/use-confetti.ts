import { useEffect } from 'react';

/** Spec §9: the success page celebrates with 300 pieces of confetti. */
export const CONFETTI_PIECES = 300;

/**
 * One burst of confetti when the page opens. canvas-confetti is downloaded here, on demand,
 * so no other page pays for it; it stays still for visitors who prefer reduced motion.
 *
 * It draws on the page's own thread (`useWorker: false`): the library's worker would be a
 * `blob:` script, which the shop's Content-Security-Policy refuses (script-src 'self'), and the
 * canvas would stay empty.
 */
export function useConfetti(): void {
  useEffect(() => {
    let cancelled = false;
    let reset: (() => void) | undefined;
    import('canvas-confetti')
      .then(({ default: confetti }) => {
        if (cancelled) return;
        const fire = confetti.create(undefined, { useWorker: false, resize: true });
        reset = () => fire.reset();
        void fire({
          particleCount: CONFETTI_PIECES,
          spread: 100,
          startVelocity: 45,
          origin: { y: 0.6 },
          disableForReducedMotion: true,
        });
      })
      .catch((err: unknown) => console.warn('Could not load the confetti:', err));
    return () => {
      cancelled = true;
      reset?.();
    };
  }, []);
}
