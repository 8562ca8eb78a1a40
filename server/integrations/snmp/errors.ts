/**
 * SNMP failures, classified the way an operator acts on them:
 * - timeout: no answer in time. For v2c this is also what a wrong community looks like, because an agent
 *   silently drops requests with an unknown community; the message says so.
 * - auth: the agent answered but refused us (SNMPv3 unknown user, wrong digest/key, decryption error,
 *   unsupported security level; v2c/v3 noAccess/authorizationError).
 * - unreachable: the address cannot be reached (name not found, no route, ICMP port unreachable).
 * - protocol: anything else the agent or the library reported (malformed answers, error-status in a PDU).
 */
import snmp from 'net-snmp';

export type SnmpErrorKind = 'timeout' | 'auth' | 'unreachable' | 'protocol';

export class SnmpError extends Error {
  constructor(
    readonly kind: SnmpErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SnmpError';
  }
}

const UNREACHABLE_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNREFUSED',
  'EADDRNOTAVAIL',
  'EHOSTDOWN',
  'ENETDOWN',
]);

/** ErrorStatus values that mean "you may not": noAccess(6), authorizationError(16). */
const ACCESS_DENIED_STATUSES = new Set([6, 16]);

export interface ClassifyContext {
  version: 'v2c' | 'v3';
  timeoutMs: number;
  target: string;
}

export function timeoutMessage(ctx: ClassifyContext): string {
  return ctx.version === 'v2c'
    ? `No SNMP answer from ${ctx.target} within ${ctx.timeoutMs} ms: timeout or wrong community (an agent ignores requests with a community it does not know), or SNMP is not running there`
    : `No SNMP answer from ${ctx.target} within ${ctx.timeoutMs} ms: timeout (the device is unreachable, SNMP is not running there, or the SNMPv3 privacy key is wrong: an agent drops what it cannot decrypt)`;
}

/** Turns whatever net-snmp or the socket reported into an SnmpError. */
export function classifySnmpError(error: unknown, ctx: ClassifyContext): SnmpError {
  if (error instanceof SnmpError) return error;
  const err = error as { name?: string; code?: string | number; status?: number; message?: string } | undefined;
  const text = err?.message ?? String(error);
  if (err?.name === 'RequestTimedOutError') {
    return new SnmpError('timeout', timeoutMessage(ctx), { cause: error });
  }
  if (err?.name === 'ResponseInvalidError') {
    const code = err?.code;
    if (code === snmp.ResponseInvalidCode.EAuthFailure || code === snmp.ResponseInvalidCode.ECouldNotDecrypt) {
      return new SnmpError('auth', `SNMPv3 authentication failed at ${ctx.target}: ${text}`, { cause: error });
    }
    if (code === snmp.ResponseInvalidCode.ECommunityNoMatch) {
      return new SnmpError('auth', `The agent at ${ctx.target} answered with another community: ${text}`, {
        cause: error,
      });
    }
    return new SnmpError('protocol', `Invalid SNMP answer from ${ctx.target}: ${text}`, { cause: error });
  }
  if (err?.name === 'RequestFailedError') {
    if (typeof err?.status === 'number' && ACCESS_DENIED_STATUSES.has(err.status)) {
      return new SnmpError('auth', `The agent at ${ctx.target} refused access: ${text}`, { cause: error });
    }
    return new SnmpError('protocol', `The agent at ${ctx.target} reported an error: ${text}`, { cause: error });
  }
  if (typeof err?.code === 'string' && UNREACHABLE_CODES.has(err.code)) {
    const why =
      err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN' || err.code === 'EAI_NONAME'
        ? 'host name not found'
        : err.code === 'ECONNREFUSED'
          ? 'port closed (ICMP port unreachable)'
          : 'no route to host';
    return new SnmpError('unreachable', `${ctx.target} is unreachable: ${why} (${err.code})`, { cause: error });
  }
  return new SnmpError('protocol', `SNMP request to ${ctx.target} failed: ${text}`, { cause: error });
}
