import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, testConfig, TEST_PASSWORD, refreshCookieHeader } from '../helpers/server';
import type { Database } from '../../server/db/client';
import { hashPassword } from '../../server/lib/passwords';
import { createUserRepository } from '../../server/modules/users/repository';

let app: FastifyInstance;
let database: Database;
const lines: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  app = await buildApp({ config: testConfig(), database, mailer: null, logger: { level: 'trace', stream } });
  await createUserRepository(database.db).insert({ name: 'Logan Log', email: 'logan@example.com', passwordHash: await hashPassword(TEST_PASSWORD) });
});
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('structured logs', () => {
  it('log each request with its id, and never the password, the bearer token or the refresh cookie', async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'x-request-id': 'req-login-1' },
      payload: { email: 'logan@example.com', password: TEST_PASSWORD, rememberMe: true },
    });
    const access = login.json().data.tokens.access.token as string;
    const cookie = refreshCookieHeader(login);
    await app.inject({ method: 'GET', url: '/api/auth/profile', headers: { authorization: `Bearer ${access}` } });
    await app.inject({ method: 'POST', url: '/api/auth/refresh-token', headers: { cookie } });
    await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'logan@example.com', password: 'Wrong-Secret-77', rememberMe: false } });

    const log = lines.join('');
    expect(lines.map((l) => JSON.parse(l)).some((l) => l.reqId === 'req-login-1')).toBe(true);
    // One line per request: method, route, status, duration, the user once known.
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requests).toHaveLength(4);
    expect(requests[0]).toMatchObject({ reqId: 'req-login-1', method: 'POST', url: '/api/auth/login', route: '/api/auth/login', status: 200 });
    expect(typeof requests[0].ms).toBe('number');
    expect(requests[1]).toMatchObject({ method: 'GET', url: '/api/auth/profile', status: 200, user: expect.any(String) });
    expect(requests[3]).toMatchObject({ url: '/api/auth/login', status: 401 });
    expect(lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toEqual([]);
    expect(log).not.toContain(TEST_PASSWORD);
    expect(log).not.toContain('Wrong-Secret-77');
    expect(log).not.toContain(access);
    expect(log).not.toContain(cookie.split('=')[1].split('.')[0]);
  });
});
