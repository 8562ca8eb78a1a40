import { z } from 'zod';

/**
 * Messages to customers beyond e-mail (issue 38): the channels, the providers behind them, the kinds of event a
 * customer chooses per channel, and the states a sent message goes through. Shared by the server (tables, checks)
 * and the screens (forms, filters). JSON is snake_case.
 */

/** Where a message goes. E-mail is the SMTP mailer (settings); SMS and WhatsApp go through a message provider. */
export const MESSAGE_CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** The channels served by a configured provider (e-mail is served by the SMTP settings). */
export const PROVIDER_CHANNELS = ['sms', 'whatsapp'] as const;
export type ProviderChannel = (typeof PROVIDER_CHANNELS)[number];

/**
 * The providers: Twilio's Messages API (SMS, the REST shape most SMS gateways copy), a generic HTTP webhook (a
 * local gateway: URL, method, body template, auth header), Meta's WhatsApp Cloud API (approved templates), and a
 * log-only provider for development (records the message, sends nothing).
 */
export const MESSAGE_PROVIDERS = ['twilio', 'webhook', 'whatsapp_cloud', 'log'] as const;
export type MessageProviderKind = (typeof MESSAGE_PROVIDERS)[number];

/** Which channel each provider can serve. */
export const PROVIDER_CHANNEL: Record<MessageProviderKind, readonly ProviderChannel[]> = {
  twilio: ['sms', 'whatsapp'],
  webhook: ['sms', 'whatsapp'],
  whatsapp_cloud: ['whatsapp'],
  log: ['sms', 'whatsapp'],
};

/** The secret settings of each provider (sealed at rest, write-only in the API, masked in answers). */
export const MESSAGE_PROVIDER_SECRET_KEYS: Record<MessageProviderKind, readonly string[]> = {
  twilio: ['auth_token'],
  webhook: ['auth_header_value', 'callback_token'],
  whatsapp_cloud: ['access_token', 'app_secret'],
  log: [],
};

/** What a message is about; a customer turns each on or off per channel. Marketing is off until they opt in. */
export const MESSAGE_CATEGORIES = ['billing', 'service', 'outages', 'marketing'] as const;
export type MessageCategory = (typeof MESSAGE_CATEGORIES)[number];

/**
 * A message's life: queued (stored, its send job queued) → sending → sent (the provider took it) → delivered
 * (the provider's status callback) or failed / undelivered. `skipped`: not sent on purpose (opted out, no
 * verified number, no provider), kept so staff see why a customer got nothing.
 */
export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'undelivered', 'skipped'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** A customer segment for a bulk message. */
export const BULK_SEGMENTS = ['all', 'plan', 'nas', 'area', 'unpaid'] as const;
export type BulkSegment = (typeof BULK_SEGMENTS)[number];

export const BULK_STATUSES = ['queued', 'sending', 'done', 'cancelled'] as const;
export type BulkStatus = (typeof BULK_STATUSES)[number];

/** Outages and maintenance windows (issue 38). */
export const INCIDENT_KINDS = ['outage', 'maintenance'] as const;
export type IncidentKind = (typeof INCIDENT_KINDS)[number];
/** Who opened it: the device poller (a NAS or an uplink went down) or staff (a maintenance window, a notice). */
export const INCIDENT_SOURCES = ['poller', 'staff'] as const;
export type IncidentSource = (typeof INCIDENT_SOURCES)[number];

export const messageChannelSchema = z.enum(MESSAGE_CHANNELS);
export const messageCategorySchema = z.enum(MESSAGE_CATEGORIES);
