import { create } from 'zustand';

type ChatWidgetState = {
  /** Closed by default; a reload starts closed. */
  isOpen: boolean;
  open: () => void;
  close: () => void;
  toggle: () => void;
};

/** Whether the help chat window is open. The conversation itself lives in the window. */
export const useChatWidgetStore = create<ChatWidgetState>()((set, get) => ({
  isOpen: false,
  open: () => set({ isOpen: true }),
  close: () => set({ isOpen: false }),
  toggle: () => set({ isOpen: !get().isOpen }),
}));
