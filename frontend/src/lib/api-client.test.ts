import { describe, expect, it, vi } from 'vitest';

import { api, ApiError, fieldErrors, firstFieldMessages } from '@/lib/api-client';
import { jsonResponse } from '@/testing/test-utils';

describe('api client', () => {
  it('calls /api with cookies and parses JSON', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ name: 'Garden Shop' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.get('/site')).resolves.toEqual({ name: 'Garden Shop' });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/site',
      expect.objectContaining({ method: 'GET', credentials: 'include' }),
    );
  });

  it('sends JSON bodies', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    await api.post('/login', { body: { email: 'a@example.com', password: 'pw' } });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/login',
      expect.objectContaining({
        method: 'POST',
        body: '{"email":"a@example.com","password":"pw"}',
        headers: expect.objectContaining({ 'Content-Type': 'application/json' }),
      }),
    );
  });

  it('fills the path parameters, URI-encoded, and sends the query parameters that have a value', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ message: 'Chat ended.' }));
    vi.stubGlobal('fetch', fetchMock);
    await api.delete('/chat/{chat_id}', {
      params: { path: { chat_id: 'a/b c' }, query: { session_id: 's 1' } },
    });
    await api.get('/admin/chats', { params: { query: { status: undefined, before: 'x' } } });
    await api.get('/admin/chats', { params: { query: { status: undefined } } });
    expect(fetchMock.mock.calls.map((args) => (args as unknown[])[0])).toEqual([
      '/api/chat/a%2Fb%20c?session_id=s+1',
      '/api/admin/chats?before=x',
      '/api/admin/chats',
    ]);
  });

  it('answers undefined for a 204 and sends a DELETE body as JSON', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.delete('/profile', { body: { password: 'pw' } })).resolves.toBeUndefined();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/profile',
      expect.objectContaining({ method: 'DELETE', body: '{"password":"pw"}' }),
    );
  });

  it('turns an error answer into an ApiError with the server message and field errors', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          { message: 'The given data was invalid.', errors: { email: ['Taken.'] } },
          422,
        ),
      ),
    );
    const error = await api
      .post('/send-verification-code', {
        body: { name: '', email: '', password: '', password_confirmation: '' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      message: 'The given data was invalid.',
      errors: { email: ['Taken.'] },
    });
  });

  it('keeps the whole error body for the extra keys a 409 carries', async () => {
    const problems = ['- T-Rex is out of stock.'];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          { message: 'Please fix the following issues before continuing:', problems },
          409,
        ),
      ),
    );
    const body = { email: '', roblox_username: '', items: [], total: 0 };
    const error = await api.post('/stripe/checkout', { body }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).body).toEqual({
      message: 'Please fix the following issues before continuing:',
      problems,
    });
  });

  it('reports a 404 as not found', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ message: 'Product not found.', errors: {} }, 404)),
    );
    const error = (await api
      .get('/products/{id}', { params: { path: { id: 99 } } })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.isNotFound).toBe(true);
    expect(error.message).toBe('Product not found.');
  });

  it('explains a failure without a JSON body', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('Bad Gateway', { status: 502 })),
    );
    await expect(api.get('/products')).rejects.toMatchObject({
      status: 502,
      message: 'Something went wrong (error 502). Please try again.',
    });
  });

  it('explains a network failure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(api.get('/products')).rejects.toMatchObject({
      status: 0,
      message: 'We could not reach the shop. Check your connection and try again.',
    });
  });
});

describe('422 field errors', () => {
  it('takes the first message of each field of a 422', () => {
    const error = new ApiError(422, 'Invalid.', {
      email: ['Taken.', 'Also bad.'],
      password: [],
      name: ['Required.'],
    });
    expect(fieldErrors(error)).toEqual({ email: 'Taken.', name: 'Required.' });
  });

  it('has no field errors for other failures', () => {
    expect(fieldErrors(new ApiError(429, 'Slow down.', { email: ['x'] }))).toEqual({});
    expect(fieldErrors(new Error('boom'))).toEqual({});
  });

  it('files the messages of a list field under the field, first one first', () => {
    expect(
      firstFieldMessages({
        'images[]': ['Each image must be a PNG, JPEG, WebP or GIF.'],
        images: ['Too many images.'],
        'related_ids.1': ['A bundle cannot contain another bundle.'],
      }),
    ).toEqual({
      images: 'Each image must be a PNG, JPEG, WebP or GIF.',
      related_ids: 'A bundle cannot contain another bundle.',
    });
  });
});
