/**
 * SNMP sessions on net-snmp (v2c and v3 USM), promise-based, with numeric OIDs, a per-call deadline and
 * every failure turned into an SnmpError (see errors.ts).
 */
import { isIPv6 } from 'node:net';
import snmp from 'net-snmp';
import type { SnmpAuthProtocol, SnmpPrivProtocol } from '../../../contract/schemas/device';
import { classifySnmpError, SnmpError, timeoutMessage, type ClassifyContext } from './errors';

interface SnmpTarget {
  host: string;
  /** UDP port, usually 161. */
  port: number;
  /** How long one request waits for its answer (ms). Default 2000. */
  timeoutMs?: number;
  /** Resends after a timeout. Default 1. */
  retries?: number;
}

export interface SnmpV2cSettings extends SnmpTarget {
  version: 'v2c';
  community: string;
}

export interface SnmpV3Settings extends SnmpTarget {
  version: 'v3';
  user: string;
  /** null: noAuthNoPriv. */
  authProtocol: SnmpAuthProtocol | null;
  authKey: string | null;
  /** null: no privacy (authNoPriv). */
  privProtocol: SnmpPrivProtocol | null;
  privKey: string | null;
}

export type SnmpSettings = SnmpV2cSettings | SnmpV3Settings;

export type SnmpValue = number | bigint | string | Buffer | boolean | null;

export interface SnmpVarbind {
  oid: string;
  /** net-snmp's ObjectType name: Integer, OctetString, Counter, Gauge, TimeTicks, Counter64, OID, IpAddress, ... */
  type: string;
  /**
   * Integer, Counter(32), Gauge, TimeTicks: number. Counter64: bigint. OctetString, Opaque: Buffer (use
   * snmpText / snmpMac). OID, IpAddress: string. NoSuchObject, NoSuchInstance, EndOfMibView, Null: null.
   */
  value: SnmpValue;
}

export interface SnmpSession {
  readonly settings: SnmpSettings;
  close(): void;
  /** @internal */
  readonly raw: snmp.Session;
  /** @internal */
  readonly ctx: ClassifyContext;
}

export interface SnmpCallOptions {
  /** Deadline for the whole call (a walk makes many requests). Default: the session's timeout × (retries + 1), ×10 for walks. */
  timeoutMs?: number;
}

const AUTH: Record<SnmpAuthProtocol, snmp.AuthProtocols> = {
  md5: snmp.AuthProtocols.md5,
  sha: snmp.AuthProtocols.sha,
  sha224: snmp.AuthProtocols.sha224,
  sha256: snmp.AuthProtocols.sha256,
  sha384: snmp.AuthProtocols.sha384,
  sha512: snmp.AuthProtocols.sha512,
};

const PRIV: Record<SnmpPrivProtocol, snmp.PrivProtocols> = {
  des: snmp.PrivProtocols.des,
  aes: snmp.PrivProtocols.aes,
  aes256b: snmp.PrivProtocols.aes256b,
  aes256r: snmp.PrivProtocols.aes256r,
};

export function createSnmpSession(settings: SnmpSettings): SnmpSession {
  const timeout = settings.timeoutMs ?? 2000;
  const retries = settings.retries ?? 1;
  const transport = isIPv6(settings.host) ? 'udp6' : 'udp4';
  const target = isIPv6(settings.host) ? `[${settings.host}]:${settings.port}` : `${settings.host}:${settings.port}`;
  const ctx: ClassifyContext = { version: settings.version, timeoutMs: timeout, target };
  let raw: snmp.Session;
  if (settings.version === 'v2c') {
    raw = snmp.createSession(settings.host, settings.community, {
      version: snmp.Version2c,
      port: settings.port,
      timeout,
      retries,
      transport,
      backoff: 1,
    });
  } else {
    const user: snmp.User = { name: settings.user, level: snmp.SecurityLevel.noAuthNoPriv };
    if (settings.authProtocol) {
      if (!settings.authKey)
        throw new SnmpError('auth', 'SNMPv3 authentication protocol set without an authentication key');
      user.authProtocol = AUTH[settings.authProtocol];
      user.authKey = settings.authKey;
      user.level = snmp.SecurityLevel.authNoPriv;
      if (settings.privProtocol) {
        if (!settings.privKey) throw new SnmpError('auth', 'SNMPv3 privacy protocol set without a privacy key');
        user.privProtocol = PRIV[settings.privProtocol];
        user.privKey = settings.privKey;
        user.level = snmp.SecurityLevel.authPriv;
      }
    }
    raw = snmp.createV3Session(settings.host, user, {
      version: snmp.Version3,
      port: settings.port,
      timeout,
      retries,
      transport,
      backoff: 1,
    });
  }
  // net-snmp re-emits socket errors on the session; without a listener an 'error' event would throw.
  (raw as unknown as NodeJS.EventEmitter).on?.('error', () => {});
  let closed = false;
  return {
    settings,
    raw,
    ctx,
    close() {
      if (closed) return;
      closed = true;
      try {
        raw.close();
      } catch {
        // already closed by net-snmp after a socket error
      }
    },
  };
}

function convertValue(type: number, value: unknown): SnmpValue {
  if (value === null || value === undefined) return null;
  if (type === snmp.ObjectType.Counter64 && Buffer.isBuffer(value)) {
    return value.length === 0 ? 0n : BigInt(`0x${value.toString('hex')}`);
  }
  return value as SnmpValue;
}

function convert(vb: snmp.Varbind): SnmpVarbind {
  const typeName = (snmp.ObjectType as unknown as Record<number, string>)[vb.type as number] ?? String(vb.type);
  const isError = snmp.isVarbindError(vb);
  return { oid: vb.oid, type: typeName, value: isError ? null : convertValue(vb.type as number, vb.value) };
}

function withDeadline<T>(
  session: SnmpSession,
  ms: number,
  run: (resolve: (v: T) => void, reject: (e: unknown) => void) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      reject(new SnmpError('timeout', timeoutMessage({ ...session.ctx, timeoutMs: ms })));
    }, ms);
    try {
      run(
        (v) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve(v);
        },
        (e) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          reject(classifySnmpError(e, session.ctx));
        },
      );
    } catch (e) {
      done = true;
      clearTimeout(timer);
      reject(classifySnmpError(e, session.ctx));
    }
  });
}

function defaultDeadline(session: SnmpSession, factor: number): number {
  const retries = session.settings.retries ?? 1;
  // v3 needs an engine discovery round trip before the first request.
  const rounds = (retries + 1) * (session.settings.version === 'v3' ? 2 : 1);
  return session.ctx.timeoutMs * rounds * factor + 250;
}

/** GET of scalar/instance OIDs; a missing object comes back with value null (type NoSuchObject/NoSuchInstance). */
export function snmpGet(session: SnmpSession, oids: string[], options: SnmpCallOptions = {}): Promise<SnmpVarbind[]> {
  return withDeadline(session, options.timeoutMs ?? defaultDeadline(session, 1), (resolve, reject) => {
    session.raw.get(oids, (error, varbinds) => {
      if (error) reject(error);
      else resolve((varbinds ?? []).map(convert));
    });
  });
}

/** Every object under `oid` (GETBULK walk, stops at the end of the subtree). */
export function snmpWalk(
  session: SnmpSession,
  oid: string,
  options: SnmpCallOptions & { maxRepetitions?: number } = {},
): Promise<SnmpVarbind[]> {
  const collected: SnmpVarbind[] = [];
  return withDeadline(session, options.timeoutMs ?? defaultDeadline(session, 10), (resolve, reject) => {
    session.raw.subtree(
      oid,
      options.maxRepetitions ?? 20,
      (varbinds: snmp.Varbind[]) => {
        for (const vb of varbinds) if (!snmp.isVarbindError(vb)) collected.push(convert(vb));
      },
      (error: Error | null) => {
        if (error) reject(error);
        else resolve(collected);
      },
    );
  });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: dropping control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f]+/g;

/** An OctetString as text (UTF-8, control characters dropped); other values as their string form. */
export function snmpText(value: SnmpValue): string {
  if (value === null) return '';
  if (Buffer.isBuffer(value)) return value.toString('utf8').replace(CONTROL_CHARS, ' ').trim();
  return String(value);
}

/** An OctetString of 6 bytes as a MAC address aa:bb:cc:dd:ee:ff; '' when empty. */
export function snmpMac(value: SnmpValue): string {
  if (!Buffer.isBuffer(value) || value.length === 0) return '';
  return [...value].map((b) => b.toString(16).padStart(2, '0')).join(':');
}

/** The last sub-identifiers of `oid` after `base` (e.g. the ifIndex of an ifTable cell). */
export function oidSuffix(oid: string, base: string): string {
  return oid.startsWith(`${base}.`) ? oid.slice(base.length + 1) : '';
}
