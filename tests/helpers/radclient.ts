/**
 * FreeRADIUS' radclient (Debian's freeradius-utils) as the NAS in RADIUS tests: it builds real Access- and
 * Accounting-Requests (PAP, CHAP from a clear-text CHAP-Password, request authenticators, Gigawords) and reads
 * the answer with FreeRADIUS' own dictionaries (MikroTik and WISPr included). Installed with apt-get when
 * missing (scripts/ensure-radclient.mjs, also run by `npm test`).
 *
 *   const answer = await radclient({ port, secret, type: 'auth' }, { 'User-Name': 'c000001', 'User-Password': 'pw' });
 *   answer.code          // 'Access-Accept' | 'Access-Reject' | null (no reply)
 *   answer.attributes    // { 'Mikrotik-Rate-Limit': '10M/50M', 'Session-Timeout': '2592000', ... }
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const RADCLIENT_PATH = process.env.RADCLIENT_PATH ?? '/usr/bin/radclient';

/** Installs freeradius-utils when radclient is missing (the same check `npm test` runs before the suites). */
export function ensureRadclient(): void {
  if (existsSync(RADCLIENT_PATH)) return;
  const script = fileURLToPath(new URL('../../scripts/ensure-radclient.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (r.status !== 0 || !existsSync(RADCLIENT_PATH))
    throw new Error(`radclient is not installed at ${RADCLIENT_PATH} (apt-get install -y freeradius-utils)`);
}

export interface RadclientTarget {
  host?: string;
  port: number;
  secret: string;
  type: 'auth' | 'acct' | 'coa' | 'disconnect';
  /** Seconds to wait for an answer before sending again (default 2: a loaded CI machine is slow). */
  timeout?: number;
  /** Tries (default 2: one retransmission, which the server must answer like the first). */
  retries?: number;
}

export interface RadclientAnswer {
  /** The reply's packet type, or null when nothing came back. */
  code: string | null;
  /** The reply's attributes (repeated ones: the last; quotes removed). */
  attributes: Record<string, string>;
  /** Every value of each attribute, in order (a repeated one, like Cisco-AVPair, has several). */
  all: Record<string, string[]>;
  output: string;
}

/**
 * Sends one request built from `attributes` (values as radclient reads them; an array: the attribute repeated) and
 * parses the reply.
 */
export function radclient(
  target: RadclientTarget,
  attributes: Record<string, string | number | Array<string | number>>,
): Promise<RadclientAnswer> {
  const input = Object.entries(attributes)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => [name, v] as const))
    .map(([name, value]) => `${name} = ${typeof value === 'number' ? value : JSON.stringify(value)}`)
    .join('\n');
  const args = [
    '-x',
    '-r',
    String(target.retries ?? 2),
    '-t',
    String(target.timeout ?? 2),
    `${target.host ?? '127.0.0.1'}:${target.port}`,
    target.type,
    target.secret,
  ];
  return new Promise((resolve, reject) => {
    const child = execFile(RADCLIENT_PATH, args, { timeout: 15_000 }, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      // radclient exits 1 for "no reply" and for an answer other than the one it expected (a reject): both are results.
      if (error && !/No reply from server|^Received /m.test(output)) {
        reject(new Error(`radclient failed: ${error.message}\n${output}`));
        return;
      }
      resolve(parseAnswer(output));
    });
    child.stdin?.end(`${input}\n`);
  });
}

export function parseAnswer(output: string): RadclientAnswer {
  const lines = output.split('\n');
  const start = lines.findIndex((l) => l.startsWith('Received '));
  if (start < 0) return { code: null, attributes: {}, all: {}, output };
  const code = /^Received (\S+)/.exec(lines[start])![1];
  const attributes: Record<string, string> = {};
  const all: Record<string, string[]> = {};
  for (const line of lines.slice(start + 1)) {
    const m = /^\s+([\w-]+) = (.*)$/.exec(line);
    if (!m) break;
    const value = m[2].replace(/^"(.*)"$/, '$1');
    attributes[m[1]] = value;
    all[m[1]] = [...(all[m[1]] ?? []), value];
  }
  return { code, attributes, all, output };
}
