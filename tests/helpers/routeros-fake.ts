/**
 * A local stand-in for a MikroTik router's REST API (RouterOS v7), speaking its wire format for the calls the
 * portal makes:
 *   GET    /rest/system/resource      → {"architecture-name":..., "version":...}   (all values strings)
 *   GET    /rest/interface            → [{".id":"*1","name":"ether1",...}]
 *   POST   /rest/execute              {"script":"/export","as-string":""} → {"ret":"<export text>"}
 *   GET    /rest/ppp/active           → [{".id":"*8","name":"alice",...}]
 *   DELETE /rest/ppp/active/*8        → 204, no body
 * Basic auth is checked on every call; errors use RouterOS' body shape ({"error":401,"message":"Unauthorized"}).
 *
 * Switches: `fail = 'timeout'` (accept the request and never answer), `'401'`, `'500'`, or null; `exportText`
 * may be changed between calls; `requests` records what was asked. `https: true` serves TLS with a throwaway
 * self-signed certificate made by the openssl command line at start.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type RouterOsFakeFailure = 'timeout' | '401' | '500' | null;

export interface RouterOsFakeOptions {
  username?: string;
  password?: string;
  https?: boolean;
  exportText?: string;
}

export interface RouterOsFakeRequest {
  method: string;
  path: string;
  body: unknown;
  authorized: boolean;
}

export const DEFAULT_EXPORT = `# 2026-11-23 12:00:00 by RouterOS 7.16.1
# software id = ABCD-1234
#
# model = CCR2004-1G-12S+2XS
# serial number = HE10912345
/interface bridge
add name=bridge-lan
/interface wireless security-profiles
set [ find default=yes ] supplicant-identity=MikroTik
add authentication-types=wpa2-psk mode=dynamic-keys name=office wpa2-pre-shared-key=Sup3rS3cretPsk
/ip pool
add name=pppoe-pool ranges=100.64.0.10-100.64.3.250
/ppp profile
add local-address=100.64.0.1 name=pppoe-default remote-address=pppoe-pool
/interface pppoe-server server
add default-profile=pppoe-default disabled=no interface=ether2 service-name=isp
/radius
add address=10.0.0.5 secret=RadiusShared123 service=ppp
/snmp community
set [ find default=yes ] disabled=yes
add addresses=10.0.0.0/24 name=n0c-ro
/ip address
add address=192.0.2.2/30 interface=ether1 network=192.0.2.0
/ip firewall filter
add action=accept chain=input connection-state=established,related
add action=drop chain=input in-interface=ether1
/ppp secret
add name=alice password=alicePw42 profile=pppoe-default service=pppoe
/system identity
set name=core-router-1
/user
add group=full name=backup password=BackupPw!9
`;

export class RouterOsFake {
  readonly username: string;
  readonly password: string;
  readonly https: boolean;
  exportText: string;
  fail: RouterOsFakeFailure = null;
  readonly requests: RouterOsFakeRequest[] = [];
  resource: Record<string, string> = {
    'architecture-name': 'arm64',
    'board-name': 'CCR2004-1G-12S+2XS',
    'build-time': '2024-09-20 13:00:27',
    cpu: 'ARM64',
    'cpu-count': '4',
    'cpu-frequency': '1700',
    'cpu-load': '3',
    'free-hdd-space': '96169984',
    'free-memory': '3715551232',
    platform: 'MikroTik',
    'total-hdd-space': '134217728',
    'total-memory': '4294967296',
    uptime: '3d4h12m9s',
    version: '7.16.1 (stable)',
  };
  interfaces: Array<Record<string, string>> = [
    {
      '.id': '*1',
      name: 'ether1',
      type: 'ether',
      'mac-address': '48:A9:8A:00:00:01',
      running: 'true',
      disabled: 'false',
      mtu: '1500',
      'rx-byte': '123456789',
      'tx-byte': '987654321',
      comment: 'uplink',
    },
    {
      '.id': '*2',
      name: 'ether2',
      type: 'ether',
      'mac-address': '48:A9:8A:00:00:02',
      running: 'true',
      disabled: 'false',
      mtu: '1500',
      'rx-byte': '5555',
      'tx-byte': '6666',
    },
    {
      '.id': '*3',
      name: 'bridge-lan',
      type: 'bridge',
      'mac-address': '48:A9:8A:00:00:03',
      running: 'false',
      disabled: 'false',
      mtu: 'auto',
      'rx-byte': '0',
      'tx-byte': '0',
    },
  ];
  pppActive: Array<Record<string, string>> = [
    {
      '.id': '*8',
      name: 'alice',
      service: 'pppoe',
      'caller-id': '48:A9:8A:11:22:33',
      address: '100.64.0.12',
      uptime: '1h2m3s',
      encoding: '',
      'session-id': '0x81C00008',
      'limit-bytes-in': '0',
      'limit-bytes-out': '0',
      radius: 'true',
    },
    {
      '.id': '*9',
      name: 'bob',
      service: 'pppoe',
      'caller-id': '48:A9:8A:44:55:66',
      address: '100.64.0.13',
      uptime: '12m',
      encoding: '',
      'session-id': '0x81C00009',
      'limit-bytes-in': '0',
      'limit-bytes-out': '0',
      radius: 'true',
    },
  ];

  hotspotActive: Array<Record<string, string>> = [];

  private server: http.Server | https.Server | null = null;
  private readonly hanging = new Set<http.ServerResponse>();
  private port = 0;

  constructor(options: RouterOsFakeOptions = {}) {
    this.username = options.username ?? 'api';
    this.password = options.password ?? 'router-pass';
    this.https = options.https ?? false;
    this.exportText = options.exportText ?? DEFAULT_EXPORT;
  }

  /** Connection settings for createRouterOsClient. */
  get connection() {
    return {
      host: '127.0.0.1',
      port: this.port,
      tls: this.https,
      username: this.username,
      password: this.password,
      rejectUnauthorized: false,
    };
  }

  get url(): string {
    return `${this.https ? 'https' : 'http'}://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => void this.handle(req, res);
    this.server = this.https ? https.createServer(selfSignedCertificate(), handler) : http.createServer(handler);
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return send(res, 400, { detail: 'JSON parsing error', error: 400, message: 'Bad Request' });
      }
    }
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    const authorized = this.checkAuth(req.headers.authorization);
    this.requests.push({ method: req.method ?? 'GET', path, body, authorized });

    if (this.fail === 'timeout') {
      // Keep the socket open and never answer, as a router behind a black-holing firewall would look.
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    if (this.fail === '401' || !authorized) {
      res.setHeader('www-authenticate', 'Basic realm="RouterOS"');
      return send(res, 401, { error: 401, message: 'Unauthorized' });
    }
    if (this.fail === '500') return send(res, 500, { error: 500, message: 'Internal Server Error' });

    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/rest/system/resource') return send(res, 200, this.resource);
    if (method === 'GET' && path === '/rest/interface') return send(res, 200, this.interfaces);
    if (method === 'GET' && path === '/rest/ppp/active') return send(res, 200, this.pppActive);
    const pppId = /^\/rest\/ppp\/active\/(\*[0-9A-Fa-f]+)$/.exec(path);
    if (method === 'DELETE' && pppId) {
      const index = this.pppActive.findIndex((s) => s['.id'] === pppId[1]);
      if (index === -1) return send(res, 404, { detail: 'no such item', error: 404, message: 'Not Found' });
      this.pppActive.splice(index, 1);
      res.statusCode = 204;
      return void res.end();
    }
    if (method === 'GET' && path === '/rest/ip/hotspot/active') return send(res, 200, this.hotspotActive);
    const hotspotId = /^\/rest\/ip\/hotspot\/active\/(\*[0-9A-Fa-f]+)$/.exec(path);
    if (method === 'DELETE' && hotspotId) {
      const index = this.hotspotActive.findIndex((s) => s['.id'] === hotspotId[1]);
      if (index === -1) return send(res, 404, { detail: 'no such item', error: 404, message: 'Not Found' });
      this.hotspotActive.splice(index, 1);
      res.statusCode = 204;
      return void res.end();
    }
    if (method === 'POST' && path === '/rest/execute') {
      const b = (body ?? {}) as { script?: unknown; 'as-string'?: unknown };
      if (typeof b.script !== 'string')
        return send(res, 400, { detail: 'missing =script=', error: 400, message: 'Bad Request' });
      if (b.script.trim() !== '/export')
        return send(res, 400, {
          detail: `fake router only runs /export, not ${b.script}`,
          error: 400,
          message: 'Bad Request',
        });
      // Without as-string RouterOS starts a background job and answers with its id.
      if (!('as-string' in b)) return send(res, 200, { ret: '*1F' });
      return send(res, 200, { ret: this.exportText });
    }
    if (method === 'GET' && path === '/rest/export')
      return send(res, 400, { detail: 'no such command or directory (export)', error: 400, message: 'Bad Request' });
    return send(res, 404, { error: 404, message: 'Not Found' });
  }

  private checkAuth(header: string | undefined): boolean {
    if (!header?.startsWith('Basic ')) return false;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon !== -1 && decoded.slice(0, colon) === this.username && decoded.slice(colon + 1) === this.password;
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}

let cachedCert: { key: string; cert: string } | null = null;

/** A throwaway key and self-signed certificate for 127.0.0.1 (one per test process). */
export function selfSignedCertificate(): { key: string; cert: string } {
  if (cachedCert) return cachedCert;
  const dir = mkdtempSync(join(tmpdir(), 'routeros-fake-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=routeros-fake',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    cachedCert = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
    return cachedCert;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts a fake router; remember to `await fake.stop()` in afterAll. */
export async function startRouterOsFake(options: RouterOsFakeOptions = {}): Promise<RouterOsFake> {
  return new RouterOsFake(options).start();
}
