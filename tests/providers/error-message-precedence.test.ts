import { beforeEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../providers/http-client';
import { ApiError, toHttpError, toValidationErrors } from '../../providers/http-error';
import { FakeApi, fail } from './support/fake-api';

describe('error messages: server first, then "Network error", then the caller\'s fallback (spec §8)', () => {
  let api: FakeApi;
  beforeEach(() => {
    localStorage.clear();
    api = new FakeApi();
  });

  it("uses the server's message when it sends one", async () => {
    api.on('GET /plans', fail(500, 'Database unavailable'));
    const client = createHttpClient({ adapter: api.adapter });
    await expect(client.get('/plans', { fallbackMessage: 'Failed to fetch plans' })).rejects.toMatchObject({
      message: 'Database unavailable',
      statusCode: 500,
    });
  });

  it("says 'Network error' when no response arrived", async () => {
    api.on('GET /plans', { status: 0, network: true });
    const client = createHttpClient({ adapter: api.adapter });
    const error = await client.get('/plans', { fallbackMessage: 'Failed to fetch plans' }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Network error', statusCode: 0 });
  });

  it('falls back to the caller-supplied text when the server sends no message', async () => {
    api.on('GET /plans', fail(500));
    api.on('POST /plans', { status: 502, body: '<html>Bad gateway</html>' });
    api.on('DELETE /plans/1', fail(400, '   '));
    const client = createHttpClient({ adapter: api.adapter });
    await expect(client.get('/plans', { fallbackMessage: 'Failed to fetch plans' })).rejects.toMatchObject({
      message: 'Failed to fetch plans',
      statusCode: 500,
    });
    await expect(client.post('/plans', {}, { fallbackMessage: 'Failed to create plan' })).rejects.toMatchObject({
      message: 'Failed to create plan',
    });
    await expect(client.delete('/plans/1', { fallbackMessage: 'Failed to delete plan' })).rejects.toMatchObject({
      message: 'Failed to delete plan',
    });
  });

  it("without a fallback says 'An unknown error occurred.'", async () => {
    api.on('GET /plans', fail(500));
    const client = createHttpClient({ adapter: api.adapter });
    await expect(client.get('/plans')).rejects.toMatchObject({ message: 'An unknown error occurred.' });
  });

  it('turns field errors into the map antd forms read, repeats becoming a list', async () => {
    api.on(
      'POST /auth/register',
      fail(400, 'Validation failed', [
        { field: 'email', message: 'Enter a valid e-mail address' },
        { field: 'password', message: 'Too short' },
        { field: 'password', message: 'Too common' },
      ]),
    );
    const client = createHttpClient({ adapter: api.adapter });
    const error = await client.post('/auth/register', {}).catch((e) => e);
    expect(error).toMatchObject({
      message: 'Validation failed',
      statusCode: 400,
      errors: { email: 'Enter a valid e-mail address', password: ['Too short', 'Too common'] },
    });
    expect(toValidationErrors([])).toBeUndefined();
  });

  it('normalises only once: an ApiError passes through unchanged', () => {
    const original = new ApiError('Kept', 409);
    expect(toHttpError(original, 'Other')).toBe(original);
    expect(toHttpError(new Error('boom'), 'Failed to fetch users')).toMatchObject({ message: 'Failed to fetch users' });
  });
});
