import { z } from 'zod';
import {
  MESSAGE_CATEGORIES,
  MESSAGE_CHANNELS,
  MESSAGE_STATUSES,
  messageCategorySchema,
  messageChannelSchema,
} from './messaging';

/**
 * The signed-in customer's message choices (issue 38): which categories they get on which channel, their phone
 * number's verification, and the staff's message log. JSON is snake_case.
 */

/** A number in E.164 ("+" country code and number, at most 15 digits). */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;

export const PREFERENCE_MESSAGES = {
  preferences: 'Message preferences retrieved successfully',
  saved: 'Message preferences saved',
  codeSent: 'A verification code was sent by SMS',
  verified: 'Phone number verified',
  wrongCode: 'The code is not correct',
  expired: 'The code has expired; ask for a new one',
  tooManyAttempts: 'Too many wrong codes; ask for a new one',
  noCode: 'Ask for a verification code first',
  tooManyCodes: 'Too many codes asked for; try again later',
  cannotSend: 'No text message can be sent to this number right now',
  invalidPhone: 'Enter the number in international form, e.g. +15551234567',
} as const;

/** Why a channel cannot be chosen: e-mail always can; SMS and WhatsApp need a provider and a verified number. */
export const CHANNEL_UNAVAILABLE_REASONS = ['no_provider', 'phone_not_verified', 'opted_out'] as const;

export const preferencesSchema = z.object({
  channels: z.array(
    z.object({
      channel: messageChannelSchema,
      available: z.boolean(),
      reason: z.enum(CHANNEL_UNAVAILABLE_REASONS).nullable(),
    }),
  ),
  categories: z.array(messageCategorySchema),
  preferences: z.array(
    z.object({ channel: messageChannelSchema, category: messageCategorySchema, enabled: z.boolean() }),
  ),
  phone: z.string().nullable(),
  phone_verified: z.boolean(),
});
export type MessagePreferences = z.infer<typeof preferencesSchema>;

export const preferencesUpdateSchema = z.object({
  preferences: z
    .array(
      z.object({
        channel: z.enum(MESSAGE_CHANNELS, { message: `Channel must be one of ${MESSAGE_CHANNELS.join(', ')}` }),
        category: z.enum(MESSAGE_CATEGORIES, { message: `Category must be one of ${MESSAGE_CATEGORIES.join(', ')}` }),
        enabled: z.boolean({ message: 'enabled must be true or false' }),
      }),
    )
    .max(MESSAGE_CHANNELS.length * MESSAGE_CATEGORIES.length),
});

export const phoneCodeRequestSchema = z.object({
  phone: z
    .string({ message: PREFERENCE_MESSAGES.invalidPhone })
    .trim()
    .transform((v) => v.replace(/[\s().-]/g, ''))
    .pipe(z.string().regex(E164_PATTERN, { message: PREFERENCE_MESSAGES.invalidPhone })),
});
export const phoneCodeConfirmSchema = z.object({
  code: z
    .string({ message: 'Enter the 6-digit code' })
    .trim()
    .regex(/^\d{6}$/, { message: 'Enter the 6-digit code' }),
});
export const phoneCodeSentSchema = z.object({
  phone: z.string(),
  expires_at: z.string(),
  channel: messageChannelSchema,
});

/** A message in the staff's log. */
export const messageLogItemSchema = z.object({
  id: z.string().uuid(),
  event_key: z.string(),
  channel: messageChannelSchema,
  category: messageCategorySchema,
  template: z.string(),
  user_id: z.string().uuid().nullable(),
  to: z.string(),
  language: z.string(),
  subject: z.string().nullable(),
  body: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  error: z.string().nullable(),
  provider_id: z.string().uuid().nullable(),
  provider_message_id: z.string().nullable(),
  attempts: z.number().int(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});

export const messageLogQuerySchema = z.object({
  channel: messageChannelSchema.optional(),
  status: z.enum(MESSAGE_STATUSES).optional(),
  template: z.string().trim().min(1).max(64).optional(),
  user_id: z.string().uuid().optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
