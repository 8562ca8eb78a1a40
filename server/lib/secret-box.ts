/**
 * Secrets at rest (the SMTP password): AES-256-GCM with a key derived from SECRETS_KEY. The stored form is
 * "v1:<iv>:<tag>:<ciphertext>" in base64url, so a wrong key or a tampered value fails to open.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

export interface SecretBox {
  seal(plaintext: string): string;
  /** The plaintext, or null when the value cannot be opened (other key, corrupted). */
  open(sealed: string): string | null;
  /** HMAC-SHA256 (hex) of a value under a key derived from SECRETS_KEY for one purpose (e.g. voucher look-ups). */
  mac(purpose: string, value: string): string;
}

export function createSecretBox(secretsKey: string): SecretBox {
  const key = createHash('sha256').update(`isp-portal:secrets:${secretsKey}`).digest();
  const macKeys = new Map<string, Buffer>();
  return {
    mac(purpose, value) {
      let macKey = macKeys.get(purpose);
      if (!macKey) {
        macKey = createHash('sha256').update(`isp-portal:mac:${purpose}:${secretsKey}`).digest();
        macKeys.set(purpose, macKey);
      }
      return createHmac('sha256', macKey).update(value, 'utf8').digest('hex');
    },
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join(':');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split(':');
      if (version !== 'v1' || !iv || !tag || data === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
