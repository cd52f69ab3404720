import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { Drawer } from '@/components/ui/drawer';
import { Modal } from '@/components/ui/modal';

import { toast, useToastStore } from './toast-store';
import { Toaster } from './toaster';

afterEach(() => act(() => useToastStore.setState({ toasts: [] })));

describe('the toasts in a dialog', () => {
  it('sit in the drawer under its title, in the flow, not over the title', () => {
    render(
      <>
        <Drawer open onClose={() => {}} title="Your Cart">
          <p>First line</p>
        </Drawer>
        <Toaster />
      </>,
    );
    act(() => toast.success('Added Raccoon to cart'));
    const drawer = screen.getByRole('dialog', { name: 'Your Cart' });
    const message = within(drawer).getByText('Added Raccoon to cart');
    const slot = message.closest('.toast-slot') as HTMLElement;
    expect(slot).not.toBeNull();
    // after the header (the title and its close button), before the lines
    const title = within(drawer).getByRole('heading', { name: 'Your Cart' });
    expect(title.compareDocumentPosition(slot) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(slot.contains(title)).toBe(false);
    const line = within(drawer).getByText('First line');
    expect(slot.compareDocumentPosition(line) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('sit in a modal under its title too', () => {
    render(
      <>
        <Modal open onClose={() => {}} title="Mark order #4 delivered">
          <p>Body</p>
        </Modal>
        <Toaster />
      </>,
    );
    act(() => toast.error('The proof could not be uploaded.'));
    const dialog = screen.getByRole('dialog', { name: 'Mark order #4 delivered' });
    expect(
      within(dialog).getByText('The proof could not be uploaded.').closest('.toast-slot'),
    ).not.toBeNull();
  });

  it('stay in the page while no dialog is open', () => {
    render(<Toaster />);
    act(() => toast.info('Welcome back'));
    expect(screen.getByText('Welcome back').closest('.toast-slot')).toBeNull();
    expect(screen.getByRole('region', { name: 'Notifications' })).toHaveTextContent('Welcome back');
  });
});
