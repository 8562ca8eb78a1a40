/**
 * Payment gateway credentials and presentation, shared by the gateways API (module.ts) and payments: credentials
 * are sealed at rest (SECRETS_KEY) and leave only masked, to admin and billing; other signed-in users see active
 * gateways without any.
 */
import { randomBytes } from 'node:crypto';
import {
  MASK_PREFIX,
  PROVIDER_CREDENTIAL_KEYS,
  maskSecret,
  type Gateway,
  type PaymentProvider,
  type PublicGateway,
} from '../../../contract/schemas/gateway';
import type { FieldError } from '../../../contract/envelope';
import { badRequest } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import type { PaymentGatewayRow } from '../../db/schema';
import { validationSummary } from '../../plugins/errors';
import { changedFields } from '../audit/trail';
import type { GatewayRepository } from './repository';

export type Credentials = Record<string, string>;

export class GatewayService {
  constructor(private readonly deps: { box: SecretBox }) {}

  // --- credentials -------------------------------------------------------------------------------------

  /** The stored credentials in plain text (server-side use only: adapters, webhooks). */
  openCredentials(row: Pick<PaymentGatewayRow, 'credentials'>): Credentials {
    const text = this.deps.box.open(row.credentials);
    if (!text) return {};
    try {
      const parsed = JSON.parse(text) as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
      return Object.fromEntries(
        Object.entries(parsed).filter(([, v]) => typeof v === 'string' && v !== ''),
      ) as Credentials;
    } catch {
      return {};
    }
  }

  seal(credentials: Credentials): string {
    return this.deps.box.seal(JSON.stringify(credentials));
  }

  /** 400 naming every credential key the provider does not use. */
  checkKeys(provider: PaymentProvider, sent: Record<string, string | null> | undefined): void {
    if (!sent) return;
    const allowed = PROVIDER_CREDENTIAL_KEYS[provider];
    const errors: FieldError[] = Object.keys(sent)
      .filter((k) => !allowed.includes(k))
      .map((k) => ({
        field: `credentials.${k}`,
        message: allowed.length
          ? `credentials.${k} is not used by ${provider} (expected ${allowed.join(', ')})`
          : `credentials.${k} is not used by ${provider} (it takes no credentials)`,
      }));
    if (errors.length) throw badRequest(validationSummary(errors), errors);
  }

  /**
   * Stored values with the sent ones laid over: '' (or a masked value sent back unchanged) keeps the stored
   * value, null removes it, anything else replaces it. Keys the provider does not use are dropped.
   */
  merge(provider: PaymentProvider, stored: Credentials, sent: Record<string, string | null> | undefined): Credentials {
    const result: Credentials = { ...stored };
    for (const [key, value] of Object.entries(sent ?? {})) {
      if (value === null) delete result[key];
      else if (value === '' || value.startsWith(MASK_PREFIX)) continue;
      else result[key] = value;
    }
    const allowed = PROVIDER_CREDENTIAL_KEYS[provider];
    return Object.fromEntries(Object.entries(result).filter(([k]) => allowed.includes(k)));
  }

  // --- presentation ------------------------------------------------------------------------------------

  toPublic(row: PaymentGatewayRow): PublicGateway {
    return {
      id: row.id,
      name: row.name,
      provider: row.provider,
      mode: row.mode,
      is_active: row.isActive,
      is_default: row.isDefault,
      display_order: row.displayOrder,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }

  /** For admin and billing: every credential key of the provider, masked. */
  toGateway(row: PaymentGatewayRow): Gateway {
    const stored = this.openCredentials(row);
    const keys = new Set([...PROVIDER_CREDENTIAL_KEYS[row.provider], ...Object.keys(stored)]);
    const credentials = Object.fromEntries([...keys].map((k) => [k, maskSecret(stored[k])]));
    const { id, name, provider, mode, is_active, is_default, display_order, created_at, updated_at } =
      this.toPublic(row);
    return { id, name, provider, mode, credentials, is_active, is_default, display_order, created_at, updated_at };
  }

  /**
   * What changed between two states of a gateway: plain fields as {from, to}; each credential whose value
   * changed (set, replaced or removed) only as 'credentials.<key>': {changed: true}, never a value or its mask.
   */
  auditDiff(before: PaymentGatewayRow | null, after: PaymentGatewayRow | null): Record<string, unknown> {
    const plain = (row: PaymentGatewayRow | null): Record<string, unknown> => {
      if (!row) return {};
      const { name, provider, mode, is_active, is_default, display_order } = this.toPublic(row);
      return { name, provider, mode, is_active, is_default, display_order };
    };
    const secrets = (row: PaymentGatewayRow | null): Record<string, unknown> =>
      row ? Object.fromEntries(Object.entries(this.openCredentials(row)).map(([k, v]) => [`credentials.${k}`, v])) : {};
    const before_ = secrets(before);
    const after_ = secrets(after);
    return {
      ...changedFields(plain(before), plain(after)),
      ...changedFields(before_, after_, { secret: [...new Set([...Object.keys(before_), ...Object.keys(after_)])] }),
    };
  }
}

/** A new webhook secret for a seeded or sandbox gateway. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** Demo data: one active default Sandbox gateway, only when there are no gateways yet. */
export async function seedDefaultGateway(
  service: GatewayService,
  repository: GatewayRepository,
  now: Date,
): Promise<void> {
  if ((await repository.count()) > 0) return;
  await repository.insert({
    name: 'Sandbox',
    provider: 'sandbox',
    mode: 'test',
    credentials: service.seal({ webhook_secret: generateWebhookSecret() }),
    isActive: true,
    isDefault: true,
    displayOrder: 0,
    createdAt: now,
    updatedAt: now,
  });
}
