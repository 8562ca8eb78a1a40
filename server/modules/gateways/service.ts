/**
 * Payment gateway rules: who sees what (admin and billing: everything with masked credentials; other
 * signed-in users: active gateways without credentials), sealed credentials, the toggle, one default.
 */
import { randomBytes } from 'node:crypto';
import {
  MASK_PREFIX,
  PROVIDER_CREDENTIAL_KEYS,
  maskSecret,
  type Gateway,
  type GatewayInputParsed,
  type GatewayUpdateParsed,
  type PaymentProvider,
  type PublicGateway,
} from '../../../contract/schemas/gateway';
import type { FieldError } from '../../../contract/envelope';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import type { NewPaymentGatewayRow, PaymentGatewayRow } from '../../db/schema';
import type { Db } from '../../db/client';
import { validationSummary } from '../../plugins/errors';
import { changedFields, recordAudit, type AuditContext, type AuditEntry } from '../audit/trail';
import type { GatewayRepository } from './repository';

export const GATEWAY_MESSAGES = {
  list: 'Payment gateways retrieved successfully',
  detail: 'Payment gateway retrieved successfully',
  created: 'Payment gateway created successfully',
  updated: 'Payment gateway updated successfully',
  activated: 'Payment gateway activated',
  deactivated: 'Payment gateway deactivated',
  deleted: 'Payment gateway deleted successfully',
  notFound: 'Payment gateway not found',
  nameTaken: 'A payment gateway with this name already exists',
  deleteDefault: 'Make another gateway the default first',
  defaultRace: 'Another gateway was made the default at the same time; try again',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Credentials = Record<string, string>;

/** The unique index a PostgreSQL unique_violation names (node-postgres and PGlite, possibly wrapped). */
function uniqueViolationOn(error: unknown): string | null {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    if (typeof e === 'object' && (e as { code?: unknown }).code === '23505') {
      return String((e as { constraint?: unknown }).constraint ?? '');
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** Runs a change with a repository and a database handle bound to one transaction (the audit event goes with it). */
export type GatewayTransaction = <T>(work: (repository: GatewayRepository, db: Db) => Promise<T>) => Promise<T>;

export class GatewayService {
  constructor(
    private readonly deps: {
      repository: GatewayRepository;
      clock: Clock;
      box: SecretBox;
      /** Absent (payments, seeding): changes are not audited. */
      transaction?: GatewayTransaction;
    },
  ) {}

  private audited<T>(audit: AuditContext | undefined, work: (repository: GatewayRepository, record: (entry: AuditEntry) => Promise<void>) => Promise<T>): Promise<T> {
    const { transaction, repository, clock } = this.deps;
    if (!transaction || !audit) return work(repository, async () => {});
    return transaction((repo, db) => work(repo, (entry) => recordAudit(db, clock, audit, { targetType: 'gateway', ...entry })));
  }

  /**
   * What changed between two states of a gateway: plain fields as {from, to}; each credential whose value
   * changed (set, replaced or removed) only as 'credentials.<key>': {changed: true}, never a value or its mask.
   */
  private auditDiff(before: PaymentGatewayRow | null, after: PaymentGatewayRow | null): Record<string, unknown> {
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

  // --- credentials -------------------------------------------------------------------------------------

  /** The stored credentials in plain text (server-side use only: adapters, webhooks). */
  openCredentials(row: Pick<PaymentGatewayRow, 'credentials'>): Credentials {
    const text = this.deps.box.open(row.credentials);
    if (!text) return {};
    try {
      const parsed = JSON.parse(text) as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
      return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'string' && v !== '')) as Credentials;
    } catch {
      return {};
    }
  }

  private seal(credentials: Credentials): string {
    return this.deps.box.seal(JSON.stringify(credentials));
  }

  /** 400 naming every credential key the provider does not use. */
  private checkKeys(provider: PaymentProvider, sent: Record<string, string | null> | undefined): void {
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
  private merge(provider: PaymentProvider, stored: Credentials, sent: Record<string, string | null> | undefined): Credentials {
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
    const { id, name, provider, mode, is_active, is_default, display_order, created_at, updated_at } = this.toPublic(row);
    return { id, name, provider, mode, credentials, is_active, is_default, display_order, created_at, updated_at };
  }

  // --- operations --------------------------------------------------------------------------------------

  /** Managers (admin, billing) see every gateway with masked credentials; others active ones, no credentials. */
  async list(manager: boolean): Promise<Array<Gateway | PublicGateway>> {
    const rows = await this.deps.repository.all({ activeOnly: !manager });
    return manager ? rows.map((r) => this.toGateway(r)) : rows.map((r) => this.toPublic(r));
  }

  async get(id: string): Promise<Gateway> {
    return this.toGateway(await this.find(id));
  }

  /** The row (with sealed credentials) for server-side use; 404 when absent. */
  async find(id: string): Promise<PaymentGatewayRow> {
    const row = UUID.test(id) ? await this.deps.repository.findById(id) : undefined;
    if (!row) throw notFound(GATEWAY_MESSAGES.notFound);
    return row;
  }

  /** The default gateway, if any (the default payment_method of POST /payments/initiate). */
  async defaultGateway(): Promise<PaymentGatewayRow | undefined> {
    return this.deps.repository.findDefault();
  }

  /** Creates a gateway. The very first one becomes the default. */
  async create(input: GatewayInputParsed, audit?: AuditContext): Promise<Gateway> {
    const { repository, clock } = this.deps;
    this.checkKeys(input.provider, input.credentials);
    const now = clock.now();
    const first = (await repository.count()) === 0;
    const values: NewPaymentGatewayRow = {
      name: input.name,
      provider: input.provider,
      mode: input.mode,
      credentials: this.seal(this.merge(input.provider, {}, input.credentials)),
      isActive: input.is_active,
      isDefault: input.is_default || first,
      displayOrder: input.display_order,
      createdAt: now,
      updatedAt: now,
    };
    const row = await this.write(() =>
      this.audited(audit, async (repo, record) => {
        const inserted = await repo.insert(values);
        await record({ action: 'gateway.created', targetId: inserted.id, changes: this.auditDiff(null, inserted) });
        return inserted;
      }),
    );
    return this.toGateway(row);
  }

  /** Applies the fields sent; returns the gateway and whether the body was only is_active (the toggle). */
  async update(id: string, input: GatewayUpdateParsed, audit?: AuditContext): Promise<{ gateway: Gateway; toggle: boolean }> {
    const { clock } = this.deps;
    const current = await this.find(id);
    const sent = Object.entries(input)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k);
    const provider = input.provider ?? current.provider;
    this.checkKeys(provider, input.credentials);
    const values: Partial<NewPaymentGatewayRow> = { updatedAt: clock.now() };
    if (input.name !== undefined) values.name = input.name;
    if (input.provider !== undefined) values.provider = input.provider;
    if (input.mode !== undefined) values.mode = input.mode;
    if (input.is_active !== undefined) values.isActive = input.is_active;
    if (input.is_default !== undefined) values.isDefault = input.is_default;
    if (input.display_order !== undefined) values.displayOrder = input.display_order;
    if (input.credentials !== undefined || input.provider !== undefined) {
      values.credentials = this.seal(this.merge(provider, this.openCredentials(current), input.credentials));
    }
    const toggle = sent.length === 1 && sent[0] === 'is_active';
    const row = await this.write(() =>
      this.audited(audit, async (repo, record) => {
        const updated = await repo.update(id, values);
        if (!updated) throw notFound(GATEWAY_MESSAGES.notFound);
        const action = toggle ? (updated.isActive ? 'gateway.enabled' : 'gateway.disabled') : 'gateway.updated';
        await record({ action, targetId: id, changes: this.auditDiff(current, updated) });
        return updated;
      }),
    );
    return { gateway: this.toGateway(row), toggle };
  }

  /** Deletes a gateway; the default one only when it is the last. */
  async delete(id: string, audit?: AuditContext): Promise<void> {
    const { repository } = this.deps;
    const row = await this.find(id);
    if (row.isDefault && (await repository.count()) > 1) throw conflict(GATEWAY_MESSAGES.deleteDefault);
    await this.audited(audit, async (repo, record) => {
      if (!(await repo.delete(id))) throw notFound(GATEWAY_MESSAGES.notFound);
      await record({ action: 'gateway.deleted', targetId: id, changes: this.auditDiff(row, null) });
    });
  }

  private async write<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      const index = uniqueViolationOn(error);
      if (index === null) throw error;
      if (index.includes('default')) throw conflict(GATEWAY_MESSAGES.defaultRace);
      throw conflict(GATEWAY_MESSAGES.nameTaken);
    }
  }
}

/** A new webhook secret for a seeded or sandbox gateway. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** Demo data: one active default Sandbox gateway, only when there are no gateways yet. */
export async function seedDefaultGateway(service: GatewayService, repository: GatewayRepository): Promise<void> {
  if ((await repository.count()) > 0) return;
  await service.create({
    name: 'Sandbox',
    provider: 'sandbox',
    mode: 'test',
    credentials: { webhook_secret: generateWebhookSecret() },
    is_active: true,
    is_default: true,
    display_order: 0,
  });
}
