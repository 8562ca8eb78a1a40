/**
 * The SMS / WhatsApp providers behind one interface (issue 38): each turns one stored message into the provider's
 * HTTP request and reads its answer. A refusal the provider will repeat (4xx: bad number, bad credentials) is a
 * permanent failure; anything else (5xx, 429, the network) is worth retrying.
 */
import { timingSafeEqual } from 'node:crypto';
import type { MessageProviderKind, ProviderChannel } from '../../../../contract/schemas/messaging';

export interface OutgoingMessage {
  channel: ProviderChannel;
  /** E.164 number. */
  to: string;
  text: string;
  language: string;
  /** WhatsApp Cloud: the approved template and its body parameters (default: the provider's generic template). */
  whatsappTemplate?: { name: string; params: string[] } | null;
  /** Where the provider reports the delivery (Twilio's StatusCallback). */
  statusCallbackUrl: string;
}

export interface SentMessage {
  /** The provider's id for it (Twilio SID, wamid…), null when the provider gives none. */
  providerMessageId: string | null;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    /** true: do not retry (the provider refused the request itself). */
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** A configured provider: its kind, non-secret settings and opened secrets. */
export interface ProviderSettings {
  id: string;
  provider: MessageProviderKind;
  config: Record<string, unknown>;
  secrets: Record<string, string>;
}

export interface MessageSender {
  send(message: OutgoingMessage): Promise<SentMessage>;
}

export type FetchLike = typeof fetch;

/** A string setting, or `fallback`. */
export const setting = (config: Record<string, unknown>, key: string, fallback = ''): string => {
  const value = config[key];
  return typeof value === 'string' && value.trim() ? value.trim() : fallback;
};

/** Sends the request; a network failure or time-out is a retryable ProviderError. */
export async function request(fetchFn: FetchLike, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetchFn(url, { ...init, signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new ProviderError(`network error: ${error instanceof Error ? error.message : String(error)}`, false);
  }
}

/** An HTTP error answer as a ProviderError: 4xx permanent (except 408 and 429), the rest retryable. */
export function httpError(response: Response, detail: string): ProviderError {
  const s = response.status;
  const permanent = s >= 400 && s < 500 && s !== 408 && s !== 429;
  return new ProviderError(`HTTP ${s}: ${detail}`.slice(0, 1000), permanent);
}

export async function readJson(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return { raw: text.slice(0, 500) };
  }
}

/** Constant-time equality of a secret or signature we expect and one we were given (false when either is empty). */
export function sameSecret(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || !given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
