/** Shared set-up of the tickets API tests: one user per role plus the extra people the scope rules need. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role } from '../../contract/roles';
import type { PublicUser } from '../../contract/schemas/user';
import { ManualClock } from '../../server/lib/clock';
import { bearer, createTestApp, type ApiMethod, type TestApp } from './server';

export type Who = Role | 'other' | 'tech2' | 'retired';
export const ALL_ROLES: Role[] = ['admin', 'super_admin', 'support', 'technician', 'billing', 'user'];

export interface Ctx {
  t: TestApp;
  clock: ManualClock;
  tokens: Partial<Record<Who, string>>;
  people: Partial<Record<Who, PublicUser>>;
}

/** An app with one user per role, a second customer (other), a second technician and a deactivated technician. */
export async function setup(start = '2026-03-02T09:00:00.000Z'): Promise<Ctx> {
  const clock = new ManualClock(start);
  const t = await createTestApp({
    clock,
    config: { accessTokenTtlSeconds: 365 * 86_400, dataDir: mkdtempSync(join(tmpdir(), 'isp-tickets-')) },
  });
  const tokens: Ctx['tokens'] = {};
  const people: Ctx['people'] = {};
  for (const role of ALL_ROLES) {
    people[role] = await t.createUser({ email: `${role}@example.com`, role, name: `${role} person` });
    tokens[role] = (await t.login(`${role}@example.com`)).token;
  }
  people.other = await t.createUser({ email: 'olga@example.com', role: 'user', name: 'Olga Other' });
  tokens.other = (await t.login('olga@example.com')).token;
  people.tech2 = await t.createUser({ email: 'tina@example.com', role: 'technician', name: 'Tina Tech' });
  tokens.tech2 = (await t.login('tina@example.com')).token;
  people.retired = await t.createUser({
    email: 'rex@example.com',
    role: 'technician',
    name: 'Rex Retired',
    status: 'disabled',
  });
  return { t, clock, tokens, people };
}

export function caller(ctx: Ctx) {
  return (method: ApiMethod, url: string, who?: Who, payload?: unknown) =>
    ctx.t.app.inject({
      method,
      url: `/api${url}`,
      headers: who ? bearer(ctx.tokens[who]!) : {},
      payload: payload as object,
    });
}

export interface T {
  id: string;
  number: string;
}
