/**
 * /api/messaging/providers on the CRUD factory (issue 38), admin only: the SMS / WhatsApp providers. Secrets are
 * sealed at rest with the secret box and masked in answers (as the payment gateways' credentials); one default
 * per channel (making one the default clears the others, in the same transaction; the partial unique index
 * refuses a race); a provider serves only the channels it can (PROVIDER_CHANNEL). Audit entries name a changed
 * secret, never its value.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { MASK_PREFIX, maskSecret } from '../../../contract/schemas/gateway';
import {
  MESSAGE_PROVIDER_CONFIG_KEYS,
  MESSAGE_PROVIDER_REQUIRED,
  MESSAGE_PROVIDER_SECRET_KEYS,
  messageProviderInputSchema,
  messageProviderSchema,
  messageProviderUpdateSchema,
  PROVIDER_MESSAGES as M,
} from '../../../contract/schemas/message-provider';
import { type MessageProviderKind, PROVIDER_CHANNEL, type ProviderChannel } from '../../../contract/schemas/messaging';
import type { FieldError } from '../../../contract/envelope';
import { crudModule } from '../../crud/crud-module';
import type { Db } from '../../db/client';
import { type MessageProviderRow, messageProviders } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { changedFields } from '../audit/trail';
import { callbackUrl, providerSettings } from './delivery';

const opened = (app: FastifyInstance, row: MessageProviderRow) => providerSettings(app.secretBox, row).secrets;

export function toProvider(app: FastifyInstance, row: MessageProviderRow) {
  const secrets = opened(app, row);
  const keys = new Set([...MESSAGE_PROVIDER_SECRET_KEYS[row.provider], ...Object.keys(secrets)]);
  return {
    id: row.id,
    name: row.name,
    channel: row.channel,
    provider: row.provider,
    config: Object.fromEntries(Object.entries(row.config).map(([k, v]) => [k, String(v)])),
    secrets: Object.fromEntries([...keys].map((k) => [k, maskSecret(secrets[k])])),
    is_active: row.isActive,
    is_default: row.isDefault,
    rate_per_minute: row.ratePerMinute,
    callback_url: callbackUrl(app.config.appUrl, row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** 400 naming each setting or secret the provider does not use, a missing required setting, a wrong channel. */
function check(
  provider: MessageProviderKind,
  channel: ProviderChannel,
  config: Record<string, string>,
  secrets: Record<string, string | null> | undefined,
): void {
  const errors: FieldError[] = [];
  if (!PROVIDER_CHANNEL[provider].includes(channel)) errors.push({ field: 'channel', message: M.wrongChannel });
  for (const k of Object.keys(config))
    if (!MESSAGE_PROVIDER_CONFIG_KEYS[provider].includes(k))
      errors.push({ field: `config.${k}`, message: `config.${k} is not used by ${provider}` });
  for (const k of Object.keys(secrets ?? {}))
    if (!MESSAGE_PROVIDER_SECRET_KEYS[provider].includes(k))
      errors.push({ field: `secrets.${k}`, message: `secrets.${k} is not used by ${provider}` });
  for (const oneOf of MESSAGE_PROVIDER_REQUIRED[provider])
    if (!oneOf.some((k) => config[k]?.trim()))
      errors.push({ field: `config.${oneOf[0]}`, message: `config.${oneOf.join(' or config.')} is required` });
  if (errors.length) throw badRequest(errors.map((e) => e.message).join('; '), errors);
}

/** Stored secrets with the sent ones laid over: '' or a masked value keeps, null removes, else replaces. */
function merge(stored: Record<string, string>, sent: Record<string, string | null> | undefined) {
  const result = { ...stored };
  for (const [k, v] of Object.entries(sent ?? {})) {
    if (v === null) delete result[k];
    else if (v !== '' && !v.startsWith(MASK_PREFIX)) result[k] = v;
  }
  return result;
}

const clearOtherDefaults = (db: Db, channel: string, exceptId?: string) =>
  db
    .update(messageProviders)
    .set({ isDefault: false })
    .where(
      and(
        eq(messageProviders.channel, channel as ProviderChannel),
        exceptId ? ne(messageProviders.id, exceptId) : undefined,
      ),
    );

export default crudModule({
  name: 'message-providers',
  table: messageProviders,
  schemas: { record: messageProviderSchema, input: messageProviderInputSchema, update: messageProviderUpdateSchema },
  label: 'Message provider',
  messages: { notFound: M.notFound, conflict: M.nameTaken },
  paginate: false,
  defaultSort: { field: 'name', order: 'asc' },
  filters: ['channel', 'provider', 'is_active'],
  audit: { targetType: 'message_provider' },
  hooks: {
    toRecord: (row, { app }) => toProvider(app, row),
    beforeCreate: async (values, input, { app, db }) => {
      check(input.provider, input.channel, input.config, input.secrets);
      values.config = input.config;
      values.secrets = app.secretBox.seal(JSON.stringify(merge({}, input.secrets)));
      if (values.isDefault) await clearOtherDefaults(db, input.channel);
      return values;
    },
    beforeUpdate: async (before, values, input, { app, db }) => {
      const config = input.config ?? (before.config as Record<string, string>);
      check(before.provider, before.channel, config, input.secrets);
      values.config = config;
      delete values.secrets;
      if (input.secrets !== undefined)
        values.secrets = app.secretBox.seal(JSON.stringify(merge(opened(app, before), input.secrets)));
      if (values.isDefault) await clearOtherDefaults(db, before.channel, before.id);
      return values;
    },
    auditChanges: (before, after, { app }) => {
      const plain = (row: MessageProviderRow | null) => {
        if (!row) return {};
        const { secrets: _s, callback_url: _c, created_at: _a, updated_at: _u, ...rest } = toProvider(app, row);
        return { ...rest, config: JSON.stringify(rest.config) };
      };
      const secret = (row: MessageProviderRow | null) =>
        row ? Object.fromEntries(Object.entries(opened(app, row)).map(([k, v]) => [`secrets.${k}`, v])) : {};
      const b = secret(before);
      const a = secret(after);
      return {
        ...changedFields(plain(before), plain(after)),
        ...changedFields(b, a, { secret: [...new Set([...Object.keys(b), ...Object.keys(a)])] }),
      };
    },
    conflictMessage: (constraint) => (constraint.includes('default') ? M.defaultRace : undefined),
  },
});
