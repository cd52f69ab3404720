/** The three kinds of account. The server decides and enforces them; the UI only adapts. */
export type AccountType = 'customer' | 'admin' | 'super_admin';

/** A user as every accounts call returns it. */
export type User = {
  id: number;
  name: string;
  email: string;
  account_type: AccountType;
};

/** GET /api/auth/check */
export type Session = { loggedIn: true; user: User } | { loggedIn: false; user: null };

/** What /register collects and /verify-email sends again with the code. */
export type Registration = {
  name: string;
  email: string;
  password: string;
  password_confirmation: string;
};
