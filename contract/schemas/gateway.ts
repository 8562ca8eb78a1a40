import { z } from 'zod';

/**
 * Payment gateways (spec §3, §4, §7). JSON is snake_case. Credentials are write-only: responses carry them
 * masked ('••••' + last 4 characters, '' when empty), and only to admin and billing.
 */
export const PAYMENT_PROVIDERS = ['sandbox', 'stripe', 'manual'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const GATEWAY_MODES = ['test', 'live'] as const;
export type GatewayMode = (typeof GATEWAY_MODES)[number];

/** The credential keys each provider uses (the form shows one field per key). */
export const PROVIDER_CREDENTIAL_KEYS: Record<PaymentProvider, readonly string[]> = {
  sandbox: ['webhook_secret'],
  stripe: ['secret_key', 'webhook_secret'],
  manual: [],
};

export const MASK_PREFIX = '••••';

/** How a stored secret is shown: '••••' + its last 4 characters; '' when empty. */
export function maskSecret(value: string | null | undefined): string {
  if (!value) return '';
  return `${MASK_PREFIX}${value.slice(-4)}`;
}

/** A gateway as the API returns it to admin and billing. Timestamps are ISO strings. */
export const gatewaySchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  provider: z.enum(PAYMENT_PROVIDERS),
  mode: z.enum(GATEWAY_MODES),
  /** Values MASKED. */
  credentials: z.record(z.string(), z.string()),
  is_active: z.boolean(),
  is_default: z.boolean(),
  display_order: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Gateway = z.infer<typeof gatewaySchema>;

/** A gateway as other signed-in users see it (active ones only, never credentials). */
export const publicGatewaySchema = gatewaySchema.omit({ credentials: true });
export type PublicGateway = z.infer<typeof publicGatewaySchema>;

const name = z
  .string({ message: 'Name is required' })
  .trim()
  .min(2, { message: 'Name must be at least 2 characters' })
  .max(80, { message: 'Name must be at most 80 characters' });
const provider = z.enum(PAYMENT_PROVIDERS, { message: `Provider must be one of ${PAYMENT_PROVIDERS.join(', ')}` });
const mode = z.enum(GATEWAY_MODES, { message: `Mode must be one of ${GATEWAY_MODES.join(', ')}` });
/**
 * Credentials sent by a form: a key sent with '' (or omitted) keeps the stored value; a key sent with null
 * removes it. A masked value sent back unchanged ('••••1234') also keeps the stored value.
 */
const credentials = z.record(
  z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9_]+$/, { message: 'Credential keys may contain only lowercase letters, digits and underscores' }),
  z.string({ message: 'Credential values must be strings or null' }).max(4096).nullable(),
  { message: 'Credentials must be an object of strings' },
);
const displayOrder = z
  .number({ message: 'Display order must be a number' })
  .int({ message: 'Display order must be a whole number' })
  .min(-100_000)
  .max(100_000);

/** Create body. Unknown keys (id, created_at, updated_at sent back by a form) are stripped, not refused (spec §5). */
export const gatewayInputSchema = z.object({
  name,
  provider,
  mode: mode.optional().default('test'),
  credentials: credentials.optional(),
  is_active: z.boolean({ message: 'is_active must be true or false' }).optional().default(true),
  is_default: z.boolean({ message: 'is_default must be true or false' }).optional().default(false),
  display_order: displayOrder.optional().default(0),
});
export type GatewayInput = z.input<typeof gatewayInputSchema>;
export type GatewayInputParsed = z.output<typeof gatewayInputSchema>;

/** Update body: every field optional, no defaults (absent = unchanged). A body of only {is_active} is the toggle. */
export const gatewayUpdateSchema = z.object({
  name: name.optional(),
  provider: provider.optional(),
  mode: mode.optional(),
  credentials: credentials.optional(),
  is_active: z.boolean({ message: 'is_active must be true or false' }).optional(),
  is_default: z.boolean({ message: 'is_default must be true or false' }).optional(),
  display_order: displayOrder.optional(),
});
export type GatewayUpdate = z.input<typeof gatewayUpdateSchema>;
export type GatewayUpdateParsed = z.output<typeof gatewayUpdateSchema>;
