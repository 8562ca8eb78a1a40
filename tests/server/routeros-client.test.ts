/**
 * The RouterOS REST client against a local router stand-in that speaks the REST API's wire format (plain HTTP
 * and HTTPS with a self-signed certificate): the calls the portal makes, and each way a router fails as a
 * staff user would read it.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouterOsClient, parseRouterOsErrorBody, RouterOsError } from '../../server/integrations/routeros/client';
import { DEFAULT_EXPORT, startRouterOsFake, type RouterOsFake } from '../helpers/routeros-fake';

async function rejection(promise: Promise<unknown>): Promise<RouterOsError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(RouterOsError);
    return error as RouterOsError;
  }
  throw new Error('expected the call to fail');
}

describe('RouterOS REST client', () => {
  let router: RouterOsFake;
  let tlsRouter: RouterOsFake;
  beforeAll(async () => {
    router = await startRouterOsFake();
    tlsRouter = await startRouterOsFake({ https: true, username: 'admin', password: 's3cret' });
  });
  afterAll(async () => {
    await router.stop();
    await tlsRouter.stop();
  });

  it('reads the system resource, the interfaces and the running configuration export over HTTP', async () => {
    router.fail = null;
    const client = createRouterOsClient({ ...router.connection, timeoutMs: 2000 });
    const resource = await client.systemResource();
    expect(resource).toMatchObject({ version: '7.16.1 (stable)', 'board-name': 'CCR2004-1G-12S+2XS' });

    const interfaces = await client.interfaces();
    expect(interfaces.map((i) => i.name)).toEqual(['ether1', 'ether2', 'bridge-lan']);
    expect(interfaces[0]).toMatchObject({ '.id': '*1', 'mac-address': '48:A9:8A:00:00:01', running: 'true' });

    expect(await client.exportConfig()).toBe(DEFAULT_EXPORT);
    // The export goes through /execute as the REST API requires, asking for the output as a string.
    const exportCall = router.requests.at(-1)!;
    expect(exportCall).toMatchObject({
      method: 'POST',
      path: '/rest/execute',
      body: { script: '/export', 'as-string': '' },
      authorized: true,
    });
  });

  it('lists PPP sessions and disconnects one by its .id', async () => {
    router.fail = null;
    const client = createRouterOsClient({ ...router.connection, timeoutMs: 2000 });
    const sessions = await client.pppActive();
    expect(sessions.map((s) => s.name)).toEqual(['alice', 'bob']);
    await client.removePppActive('*8');
    expect(router.requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/rest/ppp/active/*8' });
    expect((await client.pppActive()).map((s) => s.name)).toEqual(['bob']);

    const gone = await rejection(client.removePppActive('*8'));
    expect(gone).toMatchObject({ kind: 'protocol', status: 404, detail: 'no such item' });
    expect(gone.message).toContain('404 Not Found: no such item');
  });

  it('talks HTTPS to a router with a self-signed certificate only when the device allows it', async () => {
    const allowed = createRouterOsClient({ ...tlsRouter.connection, rejectUnauthorized: false, timeoutMs: 2000 });
    expect((await allowed.systemResource()).platform).toBe('MikroTik');
    expect(await allowed.exportConfig()).toContain('/ip firewall filter');

    const strict = createRouterOsClient({ ...tlsRouter.connection, rejectUnauthorized: true, timeoutMs: 2000 });
    const error = await rejection(strict.systemResource());
    expect(error.kind).toBe('unreachable');
    expect(error.message).toMatch(/certificate could not be verified.*self-signed/);
  });

  it("reports a wrong password as an authentication failure with RouterOS' own message", async () => {
    router.fail = null;
    const client = createRouterOsClient({ ...router.connection, password: 'wrong', timeoutMs: 2000 });
    const error = await rejection(client.systemResource());
    expect(error).toMatchObject({ kind: 'auth', status: 401 });
    expect(error.message).toBe('The router rejected the user name or password (401 Unauthorized).');
  });

  it('reports a router error (500) as a protocol error and a router that never answers as a timeout', async () => {
    const client = createRouterOsClient({ ...router.connection, timeoutMs: 300 });
    router.fail = '500';
    const failed = await rejection(client.exportConfig());
    expect(failed).toMatchObject({ kind: 'protocol', status: 500 });
    expect(failed.message).toContain('500 Internal Server Error');

    router.fail = 'timeout';
    const started = Date.now();
    const timedOut = await rejection(client.interfaces());
    // Well under the 10 s default: the short timeout applied, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(timedOut.kind).toBe('timeout');
    expect(timedOut.message).toMatch(/did not answer within 0\.3 s/);
    router.fail = null;
  });

  it('reports a closed port as unreachable', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const client = createRouterOsClient({
      host: '127.0.0.1',
      port,
      tls: false,
      username: 'a',
      password: 'b',
      timeoutMs: 1000,
    });
    const error = await rejection(client.systemResource());
    expect(error.kind).toBe('unreachable');
    expect(error.message).toMatch(/refused the connection/);
  });

  it('parses RouterOS error bodies', () => {
    expect(parseRouterOsErrorBody('{"error":401,"message":"Unauthorized"}')).toEqual({
      error: 401,
      message: 'Unauthorized',
      detail: undefined,
    });
    expect(parseRouterOsErrorBody('{"detail":"no such command","error":400,"message":"Bad Request"}')).toMatchObject({
      detail: 'no such command',
    });
    expect(parseRouterOsErrorBody('<html>')).toBeNull();
  });
});
