import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { IconButton } from '@/components/ui/icon-button';
import { CloseIcon } from '@/components/ui/icons';

describe('IconButton', () => {
  it('is a plain button named by its label, with size and tone classes', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    render(
      <IconButton label="Close" size="lg" tone="brand" className="extra" onClick={onClick}>
        <CloseIcon />
      </IconButton>,
    );
    const button = screen.getByRole('button', { name: 'Close' });
    expect(button).toHaveAttribute('type', 'button');
    expect(button).toHaveClass('icon-btn', 'icon-btn--lg', 'icon-btn--brand', 'extra');
    await user.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('defaults to the md size and muted tone, and can be disabled', () => {
    render(
      <IconButton label="Clear search" disabled>
        <CloseIcon />
      </IconButton>,
    );
    const button = screen.getByRole('button', { name: 'Clear search' });
    expect(button).toHaveClass('icon-btn--md', 'icon-btn--muted');
    expect(button).toBeDisabled();
  });
});
