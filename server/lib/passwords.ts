import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

/** Algorithm.Argon2id; the package exports it as an ambient const enum, which isolatedModules cannot read. */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password, OPTIONS);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as checking a real password, for sign-in attempts with an unknown e-mail, so response
 * time does not tell which addresses have accounts. Always false.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  await verifyPassword(await dummyHash, password);
  return false;
}
