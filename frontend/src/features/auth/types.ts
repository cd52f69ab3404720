import type { Schemas } from '@/types/api';

/** The three kinds of account. The server decides and enforces them; the UI only adapts. */
export type AccountType = Schemas['AccountType'];

/** A user as every accounts call returns it. */
export type User = Schemas['User'];

/** GET /api/auth/check */
export type Session = { loggedIn: true; user: User } | { loggedIn: false; user: null };

/** What /register collects and /verify-email sends again with the code. */
export type Registration = Omit<Schemas['SignupRequest'], 'code'>;
