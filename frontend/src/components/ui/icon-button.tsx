import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';

import './icon-button.css';

/**
 * Outer size in px: xs 32, sm 36, md 40, lg 44. Tap targets should be at least sm (36px);
 * xs is only for the dismiss button inside a toast.
 */
export type IconButtonSize = 'xs' | 'sm' | 'md' | 'lg';

/**
 * muted: grey icon on a light surface; brand: text-coloured icon with a green hover;
 * inverse: the surrounding text colour, for dark surfaces such as toasts.
 */
export type IconButtonTone = 'muted' | 'brand' | 'inverse';

export type IconButtonProps = Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'aria-label' | 'children'
> & {
  ref?: Ref<HTMLButtonElement>;
  /** The accessible name (aria-label): the button shows only an icon. */
  label: string;
  /** The icon, e.g. <CloseIcon />. */
  children: ReactNode;
  size?: IconButtonSize;
  tone?: IconButtonTone;
};

/** A round button that shows only an icon, named by `label`. */
export function IconButton({
  label,
  size = 'md',
  tone = 'muted',
  className,
  type = 'button',
  children,
  ...props
}: IconButtonProps) {
  return (
    <button
      type={type}
      className={['icon-btn', `icon-btn--${size}`, `icon-btn--${tone}`, className]
        .filter(Boolean)
        .join(' ')}
      aria-label={label}
      {...props}
    >
      {children}
    </button>
  );
}
