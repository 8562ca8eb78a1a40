/**
 * "Test connection": one SNMP GET of the system group and one management API call, run side by side, each
 * with a clear result (reachable, auth_failed, timeout, unreachable, error, not_configured), a message a staff
 * user can act on, and the round trip. Nothing is written: the poller alone changes a device's status.
 */
import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ConnectionCheck, ConnectionResult, ConnectionTest } from '../../../contract/schemas/device';
import { createRouterOsClient, RouterOsError } from '../../integrations/routeros/client';
import {
  createSnmpSession,
  OID,
  probeUdpPort,
  SnmpError,
  snmpGet,
  snmpText,
  type SnmpSettings,
} from '../../integrations/snmp';
import type { Clock } from '../../lib/clock';
import type { DeviceApiSettings } from './repository';

export const DEFAULT_TEST_TIMEOUT_MS = 3000;

const KIND_TO_RESULT: Record<SnmpError['kind'], ConnectionResult> = {
  timeout: 'timeout',
  auth: 'auth_failed',
  unreachable: 'unreachable',
  protocol: 'error',
};

function formatUptime(ticks: unknown): string | undefined {
  if (typeof ticks !== 'number') return undefined;
  let s = Math.floor(ticks / 100);
  const d = Math.floor(s / 86_400);
  s -= d * 86_400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  return `${d}d ${h}h ${m}m ${s - m * 60}s`;
}

export async function testSnmp(settings: SnmpSettings, timeoutMs: number): Promise<ConnectionCheck> {
  if (settings.version === 'v2c' && !settings.community) {
    return { status: 'not_configured', message: 'No SNMP community is set for this device.', latency_ms: null };
  }
  if (settings.version === 'v3' && !settings.user) {
    return { status: 'not_configured', message: 'No SNMPv3 user is set for this device.', latency_ms: null };
  }
  const started = performance.now();
  // The probe runs alongside: if the GET times out, a closed port (ICMP unreachable) is told apart from silence.
  const probe = probeUdpPort(settings.host, settings.port, timeoutMs);
  let session: ReturnType<typeof createSnmpSession> | undefined;
  try {
    session = createSnmpSession({ ...settings, timeoutMs, retries: 0 });
    const [name, descr, uptime] = await snmpGet(session, [OID.sysName, OID.sysDescr, OID.sysUpTime], {
      timeoutMs: settings.version === 'v3' ? timeoutMs * 2 : timeoutMs,
    });
    const latency = Math.round(performance.now() - started);
    const details: Record<string, string> = {};
    if (name.value !== null) details.sys_name = snmpText(name.value);
    if (descr.value !== null) details.sys_descr = snmpText(descr.value);
    const up = formatUptime(uptime.value);
    if (up) details.sys_uptime = up;
    return {
      status: 'reachable',
      message: `SNMP ${settings.version} answered in ${latency} ms${details.sys_name ? ` (${details.sys_name})` : ''}.`,
      latency_ms: latency,
      details,
    };
  } catch (e) {
    const error = e instanceof SnmpError ? e : new SnmpError('protocol', String(e));
    const latency = Math.round(performance.now() - started);
    if (error.kind === 'timeout' && (await probe) === 'refused') {
      return {
        status: 'unreachable',
        message: `${settings.host}:${settings.port} is unreachable: nothing listens on that UDP port (ICMP port unreachable).`,
        latency_ms: latency,
      };
    }
    return { status: KIND_TO_RESULT[error.kind], message: error.message, latency_ms: latency };
  } finally {
    session?.close();
    void probe.catch(() => {});
  }
}

/** The binary API port (8728/8729): the portal speaks only REST, so this checks that the port accepts a connection. */
function testApiPort(api: DeviceApiSettings, timeoutMs: number): Promise<ConnectionCheck> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = api.tls
      ? tlsConnect({ host: api.host, port: api.port, rejectUnauthorized: false })
      : tcpConnect({ host: api.host, port: api.port });
    const done = (check: ConnectionCheck) => {
      socket.destroy();
      resolve(check);
    };
    socket.setTimeout(timeoutMs, () =>
      done({
        status: 'timeout',
        message: `No answer from ${api.host}:${api.port} within ${timeoutMs} ms.`,
        latency_ms: Math.round(performance.now() - started),
      }),
    );
    socket.once(api.tls ? 'secureConnect' : 'connect', () =>
      done({
        status: 'reachable',
        message: `The RouterOS API port ${api.port} accepts connections; the user name and password are checked only over the REST API.`,
        latency_ms: Math.round(performance.now() - started),
      }),
    );
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done({
        status: error.code === 'ETIMEDOUT' ? 'timeout' : 'unreachable',
        message: `${api.host}:${api.port} is unreachable (${error.code ?? error.message}).`,
        latency_ms: Math.round(performance.now() - started),
      }),
    );
  });
}

export async function testApi(api: DeviceApiSettings | null, timeoutMs: number): Promise<ConnectionCheck> {
  if (!api) return { status: 'not_configured', message: 'No management API is set for this device.', latency_ms: null };
  if (api.type === 'api') return testApiPort(api, timeoutMs);
  if (!api.username)
    return { status: 'not_configured', message: 'No API user name is set for this device.', latency_ms: null };
  const started = performance.now();
  try {
    // Routers usually present a self-signed certificate; the device record has no CA to check it against.
    const client = createRouterOsClient({
      host: api.host,
      port: api.port,
      tls: api.tls,
      username: api.username,
      password: api.password,
      timeoutMs,
      rejectUnauthorized: false,
    });
    const resource = await client.systemResource();
    const latency = Math.round(performance.now() - started);
    const details: Record<string, string> = {};
    for (const key of ['version', 'board-name', 'architecture-name', 'uptime'] as const) {
      const value = resource[key];
      if (typeof value === 'string') details[key.replace(/-/g, '_')] = value;
    }
    return {
      status: 'reachable',
      message: `RouterOS REST API answered in ${latency} ms${details.version ? ` (RouterOS ${details.version})` : ''}.`,
      latency_ms: latency,
      details,
    };
  } catch (e) {
    const latency = Math.round(performance.now() - started);
    if (e instanceof RouterOsError) return { status: KIND_TO_RESULT[e.kind], message: e.message, latency_ms: latency };
    return {
      status: 'error',
      message: `RouterOS REST API call failed: ${(e as Error).message ?? String(e)}`,
      latency_ms: latency,
    };
  }
}

export async function testDeviceConnection(
  target: { snmp: SnmpSettings; api: DeviceApiSettings | null },
  options: { timeoutMs?: number; clock: Clock },
): Promise<ConnectionTest> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
  const [snmp, api] = await Promise.all([testSnmp(target.snmp, timeoutMs), testApi(target.api, timeoutMs)]);
  return { snmp, api, tested_at: options.clock.now().toISOString() };
}
