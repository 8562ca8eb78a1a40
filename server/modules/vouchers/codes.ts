/**
 * Voucher codes: random characters from an alphabet without look-alikes, then a check character (weighted sum mod 31),
 * so a mistyped code is refused without a database look-up. Only the keyed hash (look-up) and the sealed code
 * (CHAP at the hotspot) are stored.
 */
import { randomBytes } from 'node:crypto';
import {
  isImportedVoucherShape,
  isWellFormedVoucherCode,
  normalizeVoucherCode,
  VOUCHER_ALPHABET,
  voucherCheckCharacter,
} from '../../../contract/schemas/vouchers';
import type { SecretBox } from '../../lib/secret-box';

const N = VOUCHER_ALPHABET.length;
/** Bytes at or above this are dropped, so every character is equally likely (248 = 8 × 31). */
const UNBIASED_BELOW = 256 - (256 % N);

/** `count` random codes of `length` characters (the last one the check character), crypto randomness. */
export function generateVoucherCodes(count: number, length: number): string[] {
  const payloadLength = length - 1;
  const codes: string[] = [];
  let pool = randomBytes(count * payloadLength * 2 + 64);
  let at = 0;
  const next = () => {
    for (;;) {
      if (at >= pool.length) {
        pool = randomBytes(4096);
        at = 0;
      }
      const b = pool[at++]!;
      if (b < UNBIASED_BELOW) return VOUCHER_ALPHABET[b % N]!;
    }
  };
  for (let i = 0; i < count; i++) {
    let payload = '';
    for (let j = 0; j < payloadLength; j++) payload += next();
    codes.push(payload + voucherCheckCharacter(payload));
  }
  return codes;
}

export const VOUCHER_MAC_PURPOSE = 'voucher-code';

/** The look-up hash of a (normalized) code. */
export const voucherCodeHash = (box: SecretBox, code: string): string => box.mac(VOUCHER_MAC_PURPOSE, code);

/**
 * The normalized code to look up, else null (refused without a look-up). A well-formed code always; one shaped like
 * an imported card's (issue 39: letters and digits, no check character) only while imported cards exist, which
 * `importedCardsExist` asks, so a portal that never imported keeps refusing typos before any look-up.
 */
export async function voucherCodeToLookUp(
  input: string,
  importedCardsExist: () => Promise<boolean>,
): Promise<string | null> {
  const code = normalizeVoucherCode(input);
  if (isWellFormedVoucherCode(code)) return code;
  return isImportedVoucherShape(code) && (await importedCardsExist()) ? code : null;
}

/** What staff see of a code: its last 3 characters. */
export const voucherCodeHint = (code: string): string => code.slice(-3);
