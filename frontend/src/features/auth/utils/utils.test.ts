import { describe, expect, it } from 'vitest';

import { accountTypeLabel } from '@/features/auth/utils/account-type';
import { formErrorMessage } from '@/features/auth/utils/form-errors';
import { readVerifyEmailState } from '@/features/auth/utils/verify-email-state';
import { ApiError } from '@/lib/api-client';

describe('accountTypeLabel', () => {
  it.each([
    ['admin', 'Admin'],
    ['super_admin', 'Super Admin'],
    ['customer', 'Customer'],
    ['gardener', 'Gardener'],
    ['', ''],
  ])('%s -> %s', (type, label) => {
    expect(accountTypeLabel(type)).toBe(label);
  });
});

describe('form errors', () => {
  it("uses the server's message, else the fallback", () => {
    expect(formErrorMessage(new ApiError(401, 'Invalid email or password.'), 'Login failed')).toBe(
      'Invalid email or password.',
    );
    expect(formErrorMessage(new ApiError(500, ''), 'Login failed')).toBe('Login failed');
    expect(formErrorMessage(new TypeError('x is undefined'), 'Login failed')).toBe('Login failed');
    expect(formErrorMessage(undefined, 'Something went wrong.')).toBe('Something went wrong.');
  });
});

describe('readVerifyEmailState', () => {
  const registration = {
    name: 'Ann',
    email: 'ann@example.com',
    password: 'sunflower seeds',
    password_confirmation: 'sunflower seeds',
  };

  it('reads the registration and the resend delay', () => {
    expect(readVerifyEmailState({ registration, resendAfter: 42 })).toEqual({
      registration,
      resendAfter: 42,
    });
  });

  it('waits 60 s when the delay is missing', () => {
    expect(readVerifyEmailState({ registration })).toEqual({ registration, resendAfter: 60 });
  });

  it.each([
    null,
    undefined,
    'text',
    {},
    { registration: { ...registration, email: '' } },
    { registration: { name: 'Ann', email: 'ann@example.com' } },
  ])('is null for %j', (state) => {
    expect(readVerifyEmailState(state)).toBeNull();
  });
});
