/**
 * A real SNMP agent for tests: Debian's snmpd on 127.0.0.1:<free UDP port> with a throwaway configuration
 * (a v2c read-only community and an SNMPv3 authPriv user, SHA + AES). It serves the host's own MIB-II and
 * IF-MIB (the loopback and whatever interfaces this machine has), so tests read real interfaces and real
 * counters. Installed with apt-get when missing (scripts/ensure-snmpd.mjs, also run by `npm test`).
 *
 *   const agent = await startSnmpd();            // one per test file (beforeAll)
 *   createSnmpSession(agent.v2c())               // or agent.v3()
 *   await agent.stop();                          // afterAll
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSnmpSession, snmpGet, type SnmpV2cSettings, type SnmpV3Settings } from '../../server/integrations/snmp';
import { OID } from '../../server/integrations/snmp/oids';

export const SNMPD_PATH = process.env.SNMPD_PATH ?? '/usr/sbin/snmpd';

export interface SnmpdOptions {
  community?: string;
  v3User?: string;
  /** At least 8 characters (USM). */
  v3AuthKey?: string;
  v3PrivKey?: string;
  /** Extra snmpd.conf lines (e.g. `override`, `sysName`). */
  extraConfig?: string[];
}

export interface Snmpd {
  host: string;
  port: number;
  community: string;
  v3User: string;
  v3AuthKey: string;
  v3PrivKey: string;
  /** v2c settings for createSnmpSession (short timeout, no retries: tests stay fast). */
  v2c(overrides?: Partial<SnmpV2cSettings>): SnmpV2cSettings;
  /** v3 authPriv (SHA, AES) settings. */
  v3(overrides?: Partial<SnmpV3Settings>): SnmpV3Settings;
  /** snmpd's stderr/stdout so far (for failure messages). */
  log(): string;
  stop(): Promise<void>;
}

/** Installs snmpd when missing (the same check `npm test` runs before the suites). */
export function ensureSnmpd(): void {
  if (existsSync(SNMPD_PATH)) return;
  const script = fileURLToPath(new URL('../../scripts/ensure-snmpd.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (r.status !== 0 || !existsSync(SNMPD_PATH))
    throw new Error(`snmpd is not installed at ${SNMPD_PATH} (apt-get install -y snmpd)`);
}

/** A UDP port nothing listens on right now. */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

export async function startSnmpd(options: SnmpdOptions = {}): Promise<Snmpd> {
  ensureSnmpd();
  const community = options.community ?? 'test-community-7a';
  const v3User = options.v3User ?? 'portal';
  const v3AuthKey = options.v3AuthKey ?? 'auth-pass-1234';
  const v3PrivKey = options.v3PrivKey ?? 'priv-pass-5678';
  const dir = mkdtempSync(join(tmpdir(), 'snmpd-'));
  const conf = join(dir, 'snmpd.conf');
  writeFileSync(
    conf,
    [
      `rocommunity ${community} 127.0.0.1`,
      `createUser ${v3User} SHA ${v3AuthKey} AES ${v3PrivKey}`,
      `rouser ${v3User} priv`,
      'sysLocation Test rack',
      'sysContact noc@example.test',
      'sysName test-snmpd',
      ...(options.extraConfig ?? []),
      '',
    ].join('\n'),
  );

  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freeUdpPort();
    let output = '';
    const child: ChildProcess = spawn(SNMPD_PATH, ['-f', '-C', '-c', conf, '-Lo', `udp:127.0.0.1:${port}`], {
      // No MIB files on Debian: load none (numeric OIDs only); keep persistent state in the scratch folder.
      env: { ...process.env, MIBS: '', MIBDIRS: '/nonexistent', SNMP_PERSISTENT_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    let exited = false;
    const exitedPromise = new Promise<void>((resolve) =>
      child.once('exit', () => {
        exited = true;
        resolve();
      }),
    );

    const agent: Snmpd = {
      host: '127.0.0.1',
      port,
      community,
      v3User,
      v3AuthKey,
      v3PrivKey,
      v2c: (o = {}) => ({ version: 'v2c', host: '127.0.0.1', port, community, timeoutMs: 1000, retries: 0, ...o }),
      v3: (o = {}) => ({
        version: 'v3',
        host: '127.0.0.1',
        port,
        user: v3User,
        authProtocol: 'sha',
        authKey: v3AuthKey,
        privProtocol: 'aes',
        privKey: v3PrivKey,
        timeoutMs: 1000,
        retries: 0,
        ...o,
      }),
      log: () => output,
      async stop() {
        if (!exited) {
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 2000);
          await exitedPromise;
          clearTimeout(killer);
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };

    // Wait until it answers a real v2c GET (up to ~10 s: first start reads the host's tables).
    const deadline = Date.now() + 10_000;
    while (!exited && Date.now() < deadline) {
      const session = createSnmpSession(agent.v2c({ timeoutMs: 300 }));
      try {
        await snmpGet(session, [OID.sysName]);
        return agent;
      } catch (e) {
        lastError = e;
      } finally {
        session.close();
      }
    }
    await agent.stop();
    lastError = new Error(`snmpd did not answer on udp:127.0.0.1:${port}: ${String(lastError)}\n${output}`);
    // The port may have been taken between probing and binding: try another.
    if (!/Address already in use|Error opening specified endpoint/i.test(output)) break;
  }
  throw lastError;
}
