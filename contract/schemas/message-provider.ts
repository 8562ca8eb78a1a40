import { z } from 'zod';
import {
  MESSAGE_PROVIDERS,
  MESSAGE_PROVIDER_SECRET_KEYS,
  PROVIDER_CHANNELS,
  type MessageProviderKind,
} from './messaging';

/**
 * SMS / WhatsApp providers as the API shows them to admins (issue 38). Like the payment gateways' credentials,
 * the secrets (MESSAGE_PROVIDER_SECRET_KEYS) are write-only: answers carry them masked ('••••' + last 4), a key
 * sent '' or masked keeps the stored value, null removes it. `config` holds the provider's other settings.
 */

/** The non-secret settings each provider reads (the form shows one field per key). */
export const MESSAGE_PROVIDER_CONFIG_KEYS: Record<MessageProviderKind, readonly string[]> = {
  twilio: ['account_sid', 'from', 'messaging_service_sid', 'base_url'],
  webhook: ['url', 'method', 'format', 'body_template', 'auth_header_name'],
  whatsapp_cloud: ['phone_number_id', 'template_name', 'verify_token', 'base_url'],
  log: [],
};

/** The settings a provider cannot work without (one of a list: either will do). */
export const MESSAGE_PROVIDER_REQUIRED: Record<MessageProviderKind, ReadonlyArray<readonly string[]>> = {
  twilio: [['account_sid'], ['from', 'messaging_service_sid']],
  webhook: [['url']],
  whatsapp_cloud: [['phone_number_id']],
  log: [],
};

export { MESSAGE_PROVIDER_SECRET_KEYS };

export const PROVIDER_MESSAGES = {
  notFound: 'Message provider not found',
  nameTaken: 'A message provider with this name already exists',
  wrongChannel: 'This provider cannot send on this channel',
  defaultRace: 'Another provider was made the default for this channel at the same time; try again',
  testSent: 'Test message sent',
} as const;

export const messageProviderSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  channel: z.enum(PROVIDER_CHANNELS),
  provider: z.enum(MESSAGE_PROVIDERS),
  config: z.record(z.string(), z.string()),
  /** Values MASKED. */
  secrets: z.record(z.string(), z.string()),
  is_active: z.boolean(),
  is_default: z.boolean(),
  rate_per_minute: z.number().int(),
  /** Where the provider reports deliveries (and, for Twilio, …/inbound: incoming messages such as STOP). */
  callback_url: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MessageProvider = z.infer<typeof messageProviderSchema>;

const key = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9_]+$/, { message: 'Keys may contain only lowercase letters, digits and underscores' });
const name = z
  .string({ message: 'Name is required' })
  .trim()
  .min(2, { message: 'Name must be at least 2 characters' })
  .max(80, { message: 'Name must be at most 80 characters' });
const config = z.record(key, z.string({ message: 'Settings must be strings' }).trim().max(2000), {
  message: 'Settings must be an object of strings',
});
const secrets = z.record(key, z.string({ message: 'Secrets must be strings or null' }).max(4096).nullable(), {
  message: 'Secrets must be an object of strings',
});
const rate = z
  .number({ message: 'Rate must be a number' })
  .int({ message: 'Rate must be a whole number' })
  .min(1, { message: 'Rate must be at least 1 a minute' })
  .max(100_000);

export const messageProviderInputSchema = z.object({
  name,
  channel: z.enum(PROVIDER_CHANNELS, { message: `Channel must be one of ${PROVIDER_CHANNELS.join(', ')}` }),
  provider: z.enum(MESSAGE_PROVIDERS, { message: `Provider must be one of ${MESSAGE_PROVIDERS.join(', ')}` }),
  config: config.optional().default({}),
  secrets: secrets.optional(),
  is_active: z.boolean({ message: 'is_active must be true or false' }).optional().default(true),
  is_default: z.boolean({ message: 'is_default must be true or false' }).optional().default(false),
  rate_per_minute: rate.optional().default(60),
});

export const messageProviderUpdateSchema = z.object({
  name: name.optional(),
  config: config.optional(),
  secrets: secrets.optional(),
  is_active: z.boolean({ message: 'is_active must be true or false' }).optional(),
  is_default: z.boolean({ message: 'is_default must be true or false' }).optional(),
  rate_per_minute: rate.optional(),
});

export const providerTestSchema = z.object({
  to: z
    .string({ message: 'Enter the number in international form, e.g. +15551234567' })
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, { message: 'Enter the number in international form, e.g. +15551234567' }),
});
export const providerTestResultSchema = z.object({ provider_message_id: z.string().nullable() });
