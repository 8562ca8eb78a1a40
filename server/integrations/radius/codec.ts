/**
 * RADIUS packets through the maintained `radius` package (RFC 2865/2866/5176 encoding, request and response
 * authenticators, Message-Authenticator), with the vendor dictionary in this folder loaded once, plus what the
 * package leaves to its user: CHAP verification and numeric attributes read from the raw attribute list.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import radius from 'radius';
import { projectPath } from '../../lib/paths';

export type RadiusPacket = ReturnType<typeof radius.decode>;
/**
 * [name, value] or ['Vendor-Specific', vendorId, [[name, value]]], as the package encodes them, or
 * [type, Buffer] for a value already in wire format.
 */
export type RadiusAttribute = [string, unknown] | [string, number, Array<[string, unknown]>] | [number, Buffer];

export const MIKROTIK_VENDOR = 14988;
export const WISPR_VENDOR = 14122;

let loaded = false;
/**
 * Loads the package's RFC dictionaries, then ours on top. Not through add_dictionary: that is ignored once
 * anything in the process (another module, a test) has decoded a packet and so loaded the dictionaries.
 */
function ensureDictionaries(): void {
  if (loaded) return;
  const lib = radius as unknown as { load_dictionaries(): void; load_dictionary(file: string): void };
  lib.load_dictionaries();
  lib.load_dictionary(projectPath('server/integrations/radius/dictionary.portal'));
  loaded = true;
}

/** The secret of the dummy packet warmUpCodec returns. */
export const WARM_UP_SECRET = 'warm-up';

/**
 * Runs the codec on a dummy exchange a few thousand times. The package allocates with the deprecated
 * `new Buffer()`, and Node inspects the caller's stack on each of the first 10 000 such calls (to warn only
 * outside node_modules): doing those here, at start, keeps them out of the first logins of a reconnect storm.
 */
export function warmUpCodec(rounds = 2_500): Buffer {
  ensureDictionaries();
  const secret = WARM_UP_SECRET;
  let request: Buffer = Buffer.alloc(0);
  for (let i = 0; i < rounds; i++) {
    request = radius.encode({
      code: 'Access-Request',
      secret,
      identifier: i % 256,
      attributes: [
        ['User-Name', 'warm-up'],
        ['User-Password', 'warm-up-password'],
      ],
    });
    const decoded = radius.decode({ packet: request, secret });
    radius.encode_response({
      packet: decoded,
      code: 'Access-Reject',
      secret,
      attributes: [['Reply-Message', 'warm-up']],
    });
  }
  return request;
}

/** Thrown for a packet that does not decode or whose authenticator does not match the client's secret. */
export class RadiusDecodeError extends Error {
  constructor(
    message: string,
    readonly badSecret: boolean,
  ) {
    super(message);
    this.name = 'RadiusDecodeError';
  }
}

/** Decodes a request and checks its authenticators with the client's secret (Accounting/CoA/Message-Authenticator). */
export function decodeRequest(packet: Buffer, secret: string): RadiusPacket {
  ensureDictionaries();
  try {
    return radius.decode({ packet, secret });
  } catch (error) {
    const badSecret =
      (error as { name?: string }).name === 'Invalid Secret Error' ||
      /authenticator|Message-Authenticator/i.test(String((error as Error).message));
    throw new RadiusDecodeError(String((error as Error).message ?? error), badSecret);
  }
}

export function encodeResponse(
  request: RadiusPacket,
  code: string,
  secret: string,
  attributes: RadiusAttribute[] = [],
): Buffer {
  ensureDictionaries();
  return radius.encode_response({ packet: request, code, secret, attributes });
}

export function encodeRequest(code: string, secret: string, identifier: number, attributes: RadiusAttribute[]): Buffer {
  ensureDictionaries();
  return radius.encode({ code, secret, identifier, attributes });
}

/** Decodes a response (to a request we sent) once its authenticator checked out. */
export function decodeResponse(request: Buffer, response: Buffer, secret: string): RadiusPacket | null {
  ensureDictionaries();
  try {
    // verify_response writes into the response buffer while checking; give it a copy.
    if (!radius.verify_response({ request, response: Buffer.from(response), secret })) return null;
    return radius.decode_without_secret({ packet: response });
  } catch {
    return null;
  }
}

/** The first raw value of an attribute type (vendor attributes not included). */
export function rawAttribute(packet: RadiusPacket, type: number): Buffer | undefined {
  for (const attr of packet.raw_attributes) if (attr[0] === type) return attr[1] as Buffer;
  return undefined;
}

/** An integer attribute as a number (the package turns enumerated ones into names). */
export function integerAttribute(packet: RadiusPacket, type: number): number | undefined {
  const raw = rawAttribute(packet, type);
  return raw && raw.length === 4 ? raw.readUInt32BE(0) : undefined;
}

export function stringAttribute(packet: RadiusPacket, name: string): string | undefined {
  const v: unknown = packet.attributes[name];
  if (Array.isArray(v)) return v.length ? String(v[0]) : undefined;
  return v === undefined || v === null ? undefined : String(v);
}

/** RFC 2865 attribute numbers read as integers. */
export const ATTR = {
  CHAP_PASSWORD: 3,
  SERVICE_TYPE: 6,
  FRAMED_PROTOCOL: 7,
  ACCT_STATUS_TYPE: 40,
  ACCT_DELAY_TIME: 41,
  ACCT_INPUT_OCTETS: 42,
  ACCT_OUTPUT_OCTETS: 43,
  ACCT_SESSION_TIME: 46,
  ACCT_TERMINATE_CAUSE: 49,
  ACCT_INPUT_GIGAWORDS: 52,
  ACCT_OUTPUT_GIGAWORDS: 53,
  CHAP_CHALLENGE: 60,
  ACCT_INTERIM_INTERVAL: 85,
  ERROR_CAUSE: 101,
} as const;

export const ACCT_STATUS = { START: 1, STOP: 2, INTERIM: 3, ACCOUNTING_ON: 7, ACCOUNTING_OFF: 8 } as const;

/** A 64-bit counter from its Octets and Gigawords attributes: gigawords × 2^32 + octets. */
export function counter64(packet: RadiusPacket, octetsType: number, gigawordsType: number): number {
  return (integerAttribute(packet, gigawordsType) ?? 0) * 2 ** 32 + (integerAttribute(packet, octetsType) ?? 0);
}

/**
 * CHAP (RFC 1994 / RFC 2865 §2.2): CHAP-Password = ident (1 byte) + MD5(ident + password + challenge), the
 * challenge being CHAP-Challenge or, without it, the request authenticator.
 */
export function verifyChap(packet: RadiusPacket & { authenticator?: Buffer }, password: string): boolean {
  const chap = rawAttribute(packet, ATTR.CHAP_PASSWORD);
  if (chap?.length !== 17) return false;
  const challenge = rawAttribute(packet, ATTR.CHAP_CHALLENGE) ?? packet.authenticator;
  if (!challenge) return false;
  const expected = createHash('md5').update(chap.subarray(0, 1)).update(password, 'utf8').update(challenge).digest();
  return timingSafeEqual(expected, chap.subarray(1));
}

/** Constant-time comparison of two passwords (PAP). */
export function samePassword(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
