/**
 * Issue 18, metrics: Prometheus text at /metrics, never public. With METRICS_TOKEN on the portal's port for that
 * bearer token only; with METRICS_PORT on its own listener. The counters move after real API requests and a
 * radclient exchange, and the shared figures (job queue, mail backlog, open sessions) come from the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRadclient, radclient } from '../helpers/radclient';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const TOKEN = 'metrics-token-0123456789';
const SECRET = 'metrics-nas-secret';
let t: TestApp;
beforeAll(async () => {
  ensureRadclient();
  t = await createTestApp({
    config: {
      metricsToken: TOKEN,
      metricsPort: 0 as unknown as number,
      radiusEnabled: true,
      radiusHost: '127.0.0.1',
      radiusAuthPort: 0,
      radiusAcctPort: 0,
    },
  });
  await t.createUser({ email: 'admin@example.com', role: 'admin' });
});
afterAll(() => t?.close());

const scrape = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return res.body;
};
/** The value of a sample line, e.g. value(text, 'isp_mail_outbox_backlog{status="queued"}'), or 0. */
const value = (text: string, sample: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line ? Number(line.slice(sample.length + 1)) : 0;
};

describe('/metrics', () => {
  it('is refused without the bearer token or with a wrong one, and served with it', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer('wrong-token-0123456789') })).statusCode,
    ).toBe(401);
    const text = await scrape();
    expect(text).toContain('# TYPE isp_http_request_duration_seconds histogram');
    expect(text).toContain('isp_process_resident_memory_bytes');
  });

  it('counts API requests by route and status, and reads the job queue and the mail backlog from the database', async () => {
    const sample = 'isp_http_request_duration_seconds_count{method="GET",route="/api/plans",status="200"}';
    const before = value(await scrape(), sample);
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ method: 'GET', url: '/api/plans' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/plans/not-a-plan' })).statusCode).toBe(404);
    const text = await scrape();
    expect(value(text, sample)).toBe(before + 3);
    expect(
      value(text, 'isp_http_request_duration_seconds_count{method="GET",route="/api/plans/:id",status="404"}'),
    ).toBe(1);

    // An e-mail through the queue: the delivery job shows up, done.
    await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'admin@example.com' } });
    await t.app.mail.idle();
    const after = await scrape();
    expect(value(after, 'isp_jobs{queue="mail-delivery",state="completed"}')).toBeGreaterThanOrEqual(1);
    expect(value(after, 'isp_mail_outbox_backlog{status="queued"}')).toBe(0);
    expect(value(after, 'isp_radius_sessions_open')).toBe(0);
    expect(after).toContain('isp_job_oldest_waiting_seconds');
    // PostgreSQL: this process's pool.
    if (t.database.kind === 'postgres')
      expect(value(after, 'isp_db_pool_connections{state="total"}')).toBeGreaterThan(0);
  });

  it('counts a RADIUS exchange with radclient by result', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: bearer((await t.login('admin@example.com')).token),
      payload: { name: 'Edge', vendor: 'mikrotik', host: '127.0.0.1', snmp_community: 'public', radius_secret: SECRET },
    });
    await t.app.radius.clients.reload();
    const sample = 'isp_radius_requests_total{type="access",result="reject"}';
    const before = value(await scrape(), sample);
    const reply = await radclient(
      { port: t.app.radius.ports()!.authPort, secret: SECRET, type: 'auth' },
      { 'User-Name': 'nobody', 'User-Password': 'wrong' },
    );
    expect(reply.code).toBe('Access-Reject');
    const text = await scrape();
    expect(value(text, sample)).toBe(before + 1);
    expect(value(text, 'isp_radius_request_duration_seconds_count{type="access"}')).toBeGreaterThanOrEqual(1);
  });

  it('is served on its own listener with METRICS_PORT', async () => {
    const address = t.app.metricsAddress()!;
    expect(address.port).toBeGreaterThan(0);
    const res = await fetch(`http://127.0.0.1:${address.port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('isp_http_request_duration_seconds');
    expect((await fetch(`http://127.0.0.1:${address.port}/other`)).status).toBe(404);
  });
});

describe('without METRICS_PORT or METRICS_TOKEN', () => {
  it('there is no /metrics at all', async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
      expect(plain.app.metricsAddress()).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
