/**
 * Issue 38: the one way a module tells a customer something, on every channel they chose. Written first so the
 * parts built beside it (dunning, outages, the suspended page, bulk messages) code against the same interface;
 * the messaging module (./plugin.ts) implements it as `app.notifier`.
 *
 * A notification is one event for one customer. For each channel the customer has on for its category (e-mail
 * always has an address; SMS and WhatsApp need a verified number, no STOP on record and an active provider), one
 * `messages` row is stored with the notification's event key, unique per channel: the same event notified again
 * (another node, a retry, a re-run) stores nothing and sends nothing more. Sends go through the job queue with
 * retries and the provider's rate limit; e-mails through the existing mail outbox.
 */
import type { LanguageCode } from '../../../contract/languages';
import type { MessageCategory, MessageChannel, MessageStatus } from '../../../contract/schemas/messaging';
import type { Db } from '../../db/client';

/** What one event says, in one language: the e-mail's subject and text, and the short text for SMS/WhatsApp. */
export interface ComposedMessage {
  subject: string;
  /** The e-mail's plain text. */
  text: string;
  /** The e-mail's HTML (optional). */
  html?: string;
  /** The SMS / WhatsApp text (short; the messaging module adds the opt-out line where the category needs one). */
  short: string;
  /**
   * WhatsApp Cloud API only sends business-initiated messages as approved templates: the template's name and its
   * body parameters in order. Absent: the messaging module uses its generic template with `short` as parameter.
   */
  whatsappTemplate?: { name: string; params: string[] };
}

export interface Notification {
  userId: string;
  category: MessageCategory;
  /**
   * What happened, unique per event and customer, e.g. `dunning:<invoiceId>:<offset>`,
   * `incident:<id>:started:<userId>`, `bulk:<id>:<userId>`. Stored per channel; notified twice, sent once.
   */
  eventKey: string;
  /** The kind of message, for the log and filters, e.g. "dunning.reminder", "incident.started", "bulk". */
  template: string;
  /** Writes the message in the customer's language (their own, else the ISP's default). */
  compose: (language: LanguageCode) => ComposedMessage | Promise<ComposedMessage>;
  /** Only these channels (default: every channel). A customer's choices still apply, except for `required`. */
  channels?: readonly MessageChannel[];
  /**
   * Sent whatever the customer's category choices (a phone verification code, a password reset): only the
   * channel's own reachability counts (a verified number for SMS unless `to` is given, no STOP on record).
   */
  required?: boolean;
  /** Send to this address or number instead of the customer's own (the phone being verified). */
  to?: string;
  /** The bulk message this belongs to (its progress counts it). */
  bulkId?: string;
}

export interface NotifyOutcome {
  channel: MessageChannel;
  /** queued: stored and its send queued; skipped: not sent, with why; duplicate: this event was already notified. */
  status: Extract<MessageStatus, 'queued' | 'skipped'> | 'duplicate';
  reason?: string;
  messageId?: string;
}

export interface Notifier {
  /**
   * Stores the notification's messages and queues their sends. Given `tx`, the rows are written in that
   * transaction and the sends are queued only once it commits (call `flush` after the commit); without it, at once.
   */
  notify(notification: Notification, tx?: Db): Promise<NotifyOutcome[]>;
  /** Queues the sends of messages stored in a transaction that has now committed (their ids from notify). */
  flush(messageIds: readonly string[]): Promise<void>;
  /** Resolves when every send queued so far has been attempted (tests, shutdown). */
  idle(): Promise<void>;
}
