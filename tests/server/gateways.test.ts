import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { seedDemoData } from '../../server/db/seed';
import { createSecretBox } from '../../server/lib/secret-box';
import { bearer, createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const SECRET = 'sk_test_PLAINTEXT_4242_abcdefSECRET';
const WEBHOOK = 'whsec_PLAINTEXT_hook_9999ZZZZ';

describe('payment gateways API', () => {
  let t: TestApp;
  let call: CallAs;
  beforeAll(async () => {
    t = await createTestApp();
    call = await signInEveryRole(t);
    // The shop's default gateway, so the gateways made below may be switched off.
    expect(
      (await call('POST', '/payments/gateways', 'admin', { name: 'House default', provider: 'manual' })).json().data
        .is_default,
    ).toBe(true);
  });
  afterAll(() => t.close());
  const rows = async () => {
    const result = await t.database.db.execute(sql`select * from payment_gateways`);
    return JSON.stringify((result as unknown as { rows?: unknown[] }).rows ?? result);
  };

  it.each(['admin', 'billing'] as Role[])('%s creates, reads, updates, toggles and deletes a gateway', async (role) => {
    const created = await call('POST', '/payments/gateways', role, {
      name: `Stripe by ${role}`,
      provider: 'stripe',
      credentials: { secret_key: SECRET, webhook_secret: WEBHOOK },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ success: true, message: 'Payment gateway created successfully' });
    const g = created.json().data;
    expect(g).toMatchObject({
      name: `Stripe by ${role}`,
      provider: 'stripe',
      mode: 'test',
      is_active: true,
      display_order: 0,
      credentials: { secret_key: '••••CRET', webhook_secret: '••••ZZZZ' },
    });
    expect(created.body).not.toContain(SECRET);
    expect(created.body).not.toContain(WEBHOOK);

    const detail = await call('GET', `/payments/gateways/${g.id}`, role);
    expect(detail.json()).toMatchObject({
      message: 'Payment gateway retrieved successfully',
      data: { id: g.id, credentials: { secret_key: '••••CRET' } },
    });

    const updated = await call('PUT', `/payments/gateways/${g.id}`, role, {
      name: `Stripe live by ${role}`,
      mode: 'live',
      display_order: 5,
    });
    expect(updated.json()).toMatchObject({
      message: 'Payment gateway updated successfully',
      data: {
        name: `Stripe live by ${role}`,
        mode: 'live',
        display_order: 5,
        credentials: { secret_key: '••••CRET', webhook_secret: '••••ZZZZ' },
      },
    });

    const off = await call('PUT', `/payments/gateways/${g.id}`, role, { is_active: false });
    expect(off.json()).toMatchObject({ message: 'Payment gateway deactivated', data: { is_active: false } });
    const on = await call('PUT', `/payments/gateways/${g.id}`, role, { is_active: true });
    expect(on.json()).toMatchObject({ message: 'Payment gateway activated', data: { is_active: true } });
    // is_active together with other fields is an ordinary update.
    const both = await call('PUT', `/payments/gateways/${g.id}`, role, { is_active: false, display_order: 6 });
    expect(both.json().message).toBe('Payment gateway updated successfully');

    const list = await call('GET', '/payments/gateways', role);
    expect(list.json().message).toBe('Payment gateways retrieved successfully');
    expect(list.json().data.some((x: { id: string }) => x.id === g.id)).toBe(true);

    const deleted = await call('DELETE', `/payments/gateways/${g.id}`, role);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ success: true, message: 'Payment gateway deleted successfully', data: null });
    const gone = await call('GET', `/payments/gateways/${g.id}`, role);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('Payment gateway not found');
  });

  it('refuses management to support, technician and user (403) and to visitors (401); super_admin may', async () => {
    const g = (await call('POST', '/payments/gateways', 'admin', { name: 'Guarded', provider: 'manual' })).json().data;
    for (const role of ['support', 'technician', 'user'] as Role[]) {
      expect((await call('GET', `/payments/gateways/${g.id}`, role)).statusCode).toBe(403);
      expect((await call('POST', '/payments/gateways', role, { name: 'Nope', provider: 'manual' })).statusCode).toBe(
        403,
      );
      expect((await call('PUT', `/payments/gateways/${g.id}`, role, { is_active: false })).statusCode).toBe(403);
      expect((await call('DELETE', `/payments/gateways/${g.id}`, role)).statusCode).toBe(403);
    }
    for (const [method, url] of [
      ['GET', '/payments/gateways'],
      ['GET', `/payments/gateways/${g.id}`],
      ['POST', '/payments/gateways'],
      ['PUT', `/payments/gateways/${g.id}`],
      ['DELETE', `/payments/gateways/${g.id}`],
    ] as const) {
      expect(
        (await call(method, url, undefined, method === 'POST' || method === 'PUT' ? { name: 'x' } : undefined))
          .statusCode,
      ).toBe(401);
    }
    const bySuper = await call('PUT', `/payments/gateways/${g.id}`, 'super_admin', { display_order: 3 });
    expect(bySuper.statusCode).toBe(200);
    expect((await call('GET', '/payments/gateways', 'super_admin')).json().data[0]).toHaveProperty('credentials');
  });

  it('shows other signed-in users only the active gateways, never credentials', async () => {
    const active = (
      await call('POST', '/payments/gateways', 'admin', {
        name: 'Visible',
        provider: 'sandbox',
        credentials: { webhook_secret: WEBHOOK },
      })
    ).json().data;
    const inactive = (
      await call('POST', '/payments/gateways', 'admin', {
        name: 'Invisible',
        provider: 'stripe',
        is_active: false,
        credentials: { secret_key: SECRET },
      })
    ).json().data;
    for (const role of ['user', 'support', 'technician'] as Role[]) {
      const list = await call('GET', '/payments/gateways', role);
      expect(list.statusCode).toBe(200);
      const items = list.json().data as Array<Record<string, unknown>>;
      expect(items.map((i) => i.id)).toContain(active.id);
      expect(items.map((i) => i.id)).not.toContain(inactive.id);
      expect(items.every((i) => i.is_active === true && !('credentials' in i))).toBe(true);
      expect(list.body).not.toContain('••••');
      expect(list.body).not.toContain(WEBHOOK);
    }
    const managers = (await call('GET', '/payments/gateways', 'billing')).json().data as Array<{ id: string }>;
    expect(managers.map((i) => i.id)).toEqual(expect.arrayContaining([active.id, inactive.id]));
  });

  it('never returns credentials in full and stores them sealed', async () => {
    const responses: string[] = [];
    const created = await call('POST', '/payments/gateways', 'admin', {
      name: 'Secretive',
      provider: 'stripe',
      credentials: { secret_key: SECRET, webhook_secret: WEBHOOK },
    });
    responses.push(created.body);
    const id = created.json().data.id;
    responses.push((await call('GET', `/payments/gateways/${id}`, 'admin')).body);
    responses.push((await call('GET', '/payments/gateways', 'admin')).body);
    responses.push((await call('GET', '/payments/gateways', 'billing')).body);
    responses.push((await call('GET', '/payments/gateways', 'user')).body);
    responses.push((await call('PUT', `/payments/gateways/${id}`, 'admin', { is_active: false })).body);
    responses.push((await call('PUT', `/payments/gateways/${id}`, 'admin', { name: 'Secretive 2' })).body);
    for (const body of responses) {
      expect(body).not.toContain(SECRET);
      expect(body).not.toContain(WEBHOOK);
      expect(body).not.toContain('PLAINTEXT');
    }
    const raw = await rows();
    expect(raw).toContain('Secretive 2');
    expect(raw).not.toContain('PLAINTEXT');
    expect(raw).not.toContain('secret_key');
    const { rows: stored } = (await t.database.db.execute(
      sql`select credentials from payment_gateways where id = ${id}`,
    )) as unknown as {
      rows: Array<{ credentials: string }>;
    };
    expect(stored[0].credentials).toMatch(/^v1:/);
    expect(JSON.parse(createSecretBox(t.config.secretsKey).open(stored[0].credentials)!)).toEqual({
      secret_key: SECRET,
      webhook_secret: WEBHOOK,
    });
  });

  it("keeps a credential sent as '', omitted or masked, replaces a new value and removes one sent as null", async () => {
    const id = (
      await call('POST', '/payments/gateways', 'admin', {
        name: 'Credential edits',
        provider: 'stripe',
        credentials: { secret_key: SECRET, webhook_secret: WEBHOOK },
      })
    ).json().data.id;
    const kept = await call('PUT', `/payments/gateways/${id}`, 'admin', {
      credentials: { secret_key: '', webhook_secret: '••••ZZZZ' },
    });
    expect(kept.json().data.credentials).toEqual({ secret_key: '••••CRET', webhook_secret: '••••ZZZZ' });
    const omitted = await call('PUT', `/payments/gateways/${id}`, 'admin', { credentials: {} });
    expect(omitted.json().data.credentials).toEqual({ secret_key: '••••CRET', webhook_secret: '••••ZZZZ' });
    const replaced = await call('PUT', `/payments/gateways/${id}`, 'admin', {
      credentials: { secret_key: 'sk_live_new_value_7777' },
    });
    expect(replaced.json().data.credentials).toEqual({ secret_key: '••••7777', webhook_secret: '••••ZZZZ' });
    const removed = await call('PUT', `/payments/gateways/${id}`, 'admin', { credentials: { webhook_secret: null } });
    expect(removed.json()).toMatchObject({ message: 'Payment gateway updated successfully' });
    expect(removed.json().data.credentials).toEqual({ secret_key: '••••7777', webhook_secret: '' });
    // A provider change drops the credentials the new provider does not use.
    const manual = await call('PUT', `/payments/gateways/${id}`, 'admin', { provider: 'manual' });
    expect(manual.json().data).toMatchObject({ provider: 'manual', credentials: {} });
  });

  it('keeps one default at a time; the first gateway becomes the default; the default is deleted only last', async () => {
    const fresh = await createTestApp();
    try {
      await fresh.createUser({ email: 'a@example.com', role: 'admin' });
      const token = (await fresh.login('a@example.com')).token;
      const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
        fresh.app.inject({ method, url: `/api${url}`, headers: bearer(token), payload: payload as object });
      const a = (await req('POST', '/payments/gateways', { name: 'First', provider: 'manual' })).json().data;
      expect(a.is_default).toBe(true);
      const b = (await req('POST', '/payments/gateways', { name: 'Second', provider: 'manual' })).json().data;
      expect(b.is_default).toBe(false);
      const c = (
        await req('POST', '/payments/gateways', { name: 'Third', provider: 'manual', is_default: true })
      ).json().data;
      expect(c.is_default).toBe(true);
      const defaults = async () =>
        ((await req('GET', '/payments/gateways')).json().data as Array<{ name: string; is_default: boolean }>)
          .filter((g) => g.is_default)
          .map((g) => g.name);
      expect(await defaults()).toEqual(['Third']);
      await req('PUT', `/payments/gateways/${b.id}`, { is_default: true });
      expect(await defaults()).toEqual(['Second']);
      // Concurrent attempts still leave exactly one default.
      await Promise.all([a, c].map((g) => req('PUT', `/payments/gateways/${g.id}`, { is_default: true })));
      expect(await defaults()).toHaveLength(1);

      const current = (
        (await req('GET', '/payments/gateways')).json().data as Array<{ id: string; is_default: boolean }>
      ).find((g) => g.is_default)!;
      const refused = await req('DELETE', `/payments/gateways/${current.id}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ success: false, message: 'Make another gateway the default first' });
      for (const g of [a, b, c].filter((g) => g.id !== current.id))
        expect((await req('DELETE', `/payments/gateways/${g.id}`)).statusCode).toBe(200);
      expect((await req('DELETE', `/payments/gateways/${current.id}`)).statusCode).toBe(200);
      expect((await req('GET', '/payments/gateways')).json().data).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('never leaves customers without a way to pay: refuses (409) switching off the last active or the default gateway, or un-defaulting it', async () => {
    const fresh = await createTestApp();
    try {
      await fresh.createUser({ email: 'a@example.com', role: 'admin' });
      await fresh.createUser({ email: 'b@example.com', role: 'billing' });
      const tokens = {
        admin: (await fresh.login('a@example.com')).token,
        billing: (await fresh.login('b@example.com')).token,
      };
      const req = (who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
        fresh.app.inject({ method, url: `/api${url}`, headers: bearer(tokens[who]), payload: payload as object });
      const only = (await req('admin', 'POST', '/payments/gateways', { name: 'Only', provider: 'manual' })).json().data;
      const state = async () =>
        (
          (await req('admin', 'GET', '/payments/gateways')).json().data as Array<{
            name: string;
            is_active: boolean;
            is_default: boolean;
          }>
        ).map((g) => [g.name, g.is_active, g.is_default]);

      for (const who of ['admin', 'billing'] as const) {
        // The only active gateway (also the default).
        const last = await req(who, 'PUT', `/payments/gateways/${only.id}`, { is_active: false });
        expect(last.statusCode).toBe(409);
        expect(last.json()).toEqual({
          success: false,
          message:
            'This is the only active payment gateway: without it no customer can pay. Activate another gateway first.',
          errors: [
            {
              field: 'is_active',
              message:
                'This is the only active payment gateway: without it no customer can pay. Activate another gateway first.',
            },
          ],
        });
      }
      // With a second active gateway, the default still may not be switched off while it is the default...
      const other = (await req('admin', 'POST', '/payments/gateways', { name: 'Other', provider: 'manual' })).json()
        .data;
      const dflt = await req('billing', 'PUT', `/payments/gateways/${only.id}`, { is_active: false });
      expect(dflt.statusCode).toBe(409);
      expect(dflt.json().message).toBe(
        'This is the default payment gateway. Make another active gateway the default first, then turn this one off.',
      );
      // ...nor stop being the default on its own (another one is made the default instead).
      const undefault = await req('admin', 'PUT', `/payments/gateways/${only.id}`, { is_default: false });
      expect(undefault.statusCode).toBe(409);
      expect(undefault.json().message).toBe(
        'Make another gateway the default first: one gateway is always the default.',
      );
      expect(await state()).toEqual([
        ['Only', true, true],
        ['Other', true, false],
      ]);

      // Another default first: then the old one goes off.
      expect((await req('admin', 'PUT', `/payments/gateways/${other.id}`, { is_default: true })).statusCode).toBe(200);
      const off = await req('admin', 'PUT', `/payments/gateways/${only.id}`, { is_active: false });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().message).toBe('Payment gateway deactivated');
      expect(await state()).toEqual([
        ['Only', false, false],
        ['Other', true, true],
      ]);
      // An inactive gateway is not made the default.
      const inactiveDefault = await req('admin', 'PUT', `/payments/gateways/${only.id}`, { is_default: true });
      expect(inactiveDefault.statusCode).toBe(409);
      expect(inactiveDefault.json().message).toBe(
        'Turn this gateway on before making it the default: customers are offered the default gateway.',
      );
      // The now-only active gateway is refused too; switching on needs nothing.
      expect((await req('admin', 'PUT', `/payments/gateways/${other.id}`, { is_active: false })).statusCode).toBe(409);
      expect((await req('admin', 'PUT', `/payments/gateways/${only.id}`, { is_active: true })).statusCode).toBe(200);
      expect(await state()).toEqual([
        ['Only', true, false],
        ['Other', true, true],
      ]);
      // A gateway that is neither the default nor the last active one goes off as before.
      expect((await req('admin', 'PUT', `/payments/gateways/${only.id}`, { is_active: false })).statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it('ignores id, created_at and updated_at in payloads (spec §5)', async () => {
    const foreignId = '00000000-0000-4000-8000-000000000000';
    const created = await call('POST', '/payments/gateways', 'admin', {
      id: foreignId,
      created_at: '2001-01-01T00:00:00.000Z',
      updated_at: '2001-01-01T00:00:00.000Z',
      name: 'Cleaned',
      provider: 'manual',
    });
    expect(created.statusCode).toBe(201);
    const g = created.json().data;
    expect(g.id).not.toBe(foreignId);
    expect(g.created_at).not.toBe('2001-01-01T00:00:00.000Z');
    const updated = await call('PUT', `/payments/gateways/${g.id}`, 'admin', {
      ...g,
      id: foreignId,
      created_at: '2001-01-01T00:00:00.000Z',
      name: 'Cleaned 2',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ id: g.id, created_at: g.created_at, name: 'Cleaned 2' });
  });

  it('validates input, naming the fields (400), and refuses duplicate names (409)', async () => {
    const empty = await call('POST', '/payments/gateways', 'admin', {});
    expect(empty.statusCode).toBe(400);
    const fields = (empty.json().errors as Array<{ field: string }>).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'provider']));

    const bad = await call('POST', '/payments/gateways', 'admin', {
      name: 'x',
      provider: 'paypal',
      mode: 'production',
      is_active: 'yes',
      display_order: 1.5,
      credentials: { secret_key: 42 },
    });
    expect(bad.statusCode).toBe(400);
    const badFields = (bad.json().errors as Array<{ field: string }>).map((e) => e.field);
    expect(badFields).toEqual(
      expect.arrayContaining(['name', 'provider', 'mode', 'is_active', 'display_order', 'credentials.secret_key']),
    );
    expect(bad.json().message).toMatch(/^Validation failed: /);

    const unknownKey = await call('POST', '/payments/gateways', 'admin', {
      name: 'Unknown key',
      provider: 'sandbox',
      credentials: { api_key: 'x' },
    });
    expect(unknownKey.statusCode).toBe(400);
    expect(unknownKey.json().errors).toEqual([
      { field: 'credentials.api_key', message: expect.stringContaining('not used by sandbox') },
    ]);

    expect((await call('POST', '/payments/gateways', 'admin', { name: 'Twice', provider: 'manual' })).statusCode).toBe(
      201,
    );
    const twice = await call('POST', '/payments/gateways', 'admin', { name: 'twice', provider: 'manual' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('A payment gateway with this name already exists');

    const badUpdate = await call('PUT', '/payments/gateways/not-a-uuid', 'admin', { is_active: true });
    expect(badUpdate.statusCode).toBe(404);
    const g = (await call('POST', '/payments/gateways', 'admin', { name: 'Update checks', provider: 'manual' })).json()
      .data;
    const invalid = await call('PUT', `/payments/gateways/${g.id}`, 'admin', { name: '', is_active: 'no' });
    expect(invalid.statusCode).toBe(400);
    expect((invalid.json().errors as Array<{ field: string }>).map((e) => e.field)).toEqual(
      expect.arrayContaining(['name', 'is_active']),
    );
  });

  it('demo data seeds one active default Sandbox gateway with a sealed webhook secret, only on an empty database', async () => {
    const fresh = await createTestApp();
    try {
      const box = createSecretBox(fresh.config.secretsKey);
      await seedDemoData(fresh.database.db, { clock: fresh.clock, box });
      await seedDemoData(fresh.database.db, { clock: fresh.clock, box });
      const { token } = await fresh.login('billing@isp.local', 'Password123!');
      const list = (
        await fresh.app.inject({ method: 'GET', url: '/api/payments/gateways', headers: bearer(token) })
      ).json().data;
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        name: 'Sandbox',
        provider: 'sandbox',
        mode: 'test',
        is_active: true,
        is_default: true,
      });
      expect(list[0].credentials.webhook_secret).toMatch(/^••••.{4}$/);
      const { rows: stored } = (await fresh.database.db.execute(
        sql`select credentials from payment_gateways`,
      )) as unknown as {
        rows: Array<{ credentials: string }>;
      };
      expect(JSON.parse(box.open(stored[0].credentials)!).webhook_secret).toMatch(/^whsec_.{20,}/);
    } finally {
      await fresh.close();
    }
  });
});
