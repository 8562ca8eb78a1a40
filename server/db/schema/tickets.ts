/** Support tickets, their replies and attachments (issue 5). Re-exported by ../schema.ts, as the other schema files. */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { TICKET_CATEGORIES, TICKET_PRIORITIES, TICKET_STATUSES } from '../../../contract/schemas/ticket';
import { subscriptions, users } from '../schema';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Ticket numbers (T-000123): a sequence, so two tickets opened at once never share one (gaps are harmless). */
export const ticketNumberSeq = pgSequence('ticket_number_seq', { startWith: 1, increment: 1 });

/**
 * Support tickets (issue 5). updated_at is the last activity everyone may see (edits, status, public replies,
 * attachments) and orders the lists, newest first. resolved_at / first_response_at feed the statistics.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: varchar('number', { length: 20 }).notNull(),
    subject: varchar('subject', { length: 200 }).notNull(),
    description: text('description').notNull(),
    category: varchar('category', { length: 16, enum: TICKET_CATEGORIES }).notNull().default('other'),
    priority: varchar('priority', { length: 16, enum: TICKET_PRIORITIES }).notNull().default('normal'),
    status: varchar('status', { length: 20, enum: TICKET_STATUSES }).notNull().default('open'),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    assignedTo: uuid('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    lastReplyAt: timestamp('last_reply_at', { withTimezone: true }),
    firstResponseAt: timestamp('first_response_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('tickets_number_unique').on(t.number),
    index('tickets_created_by_idx').on(t.createdBy),
    index('tickets_assigned_to_idx').on(t.assignedTo),
    index('tickets_status_idx').on(t.status),
    index('tickets_priority_idx').on(t.priority),
    index('tickets_category_idx').on(t.category),
    index('tickets_subscription_idx').on(t.subscriptionId),
    index('tickets_updated_at_idx').on(t.updatedAt.desc(), t.id.desc()),
    // Dashboard statistics: opened and resolved per day, open now.
    index('tickets_stats_created_idx').on(t.createdAt, t.status),
    index('tickets_stats_status_created_idx').on(t.status, t.createdAt),
    index('tickets_stats_resolved_idx').on(t.resolvedAt).where(sql`${t.resolvedAt} is not null`),
  ],
);

export const ticketReplies = pgTable(
  'ticket_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    message: text('message').notNull(),
    /** Staff-only note: never sent to customers. */
    isInternal: boolean('is_internal').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('ticket_replies_ticket_idx').on(t.ticketId, t.createdAt)],
);

/** Uploaded files: stored as DATA_DIR/tickets/<ticket id>/<stored_name> (random); the original name is metadata. */
export const ticketAttachments = pgTable(
  'ticket_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    replyId: uuid('reply_id').references(() => ticketReplies.id, { onDelete: 'set null' }),
    originalName: varchar('original_name', { length: 255 }).notNull(),
    size: integer('size').notNull(),
    contentType: varchar('content_type', { length: 100 }).notNull(),
    storedName: varchar('stored_name', { length: 64 }).notNull(),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('ticket_attachments_ticket_idx').on(t.ticketId, t.createdAt),
    uniqueIndex('ticket_attachments_stored_name_unique').on(t.storedName),
  ],
);

export type TicketRow = typeof tickets.$inferSelect;
export type NewTicketRow = typeof tickets.$inferInsert;
export type TicketReplyRow = typeof ticketReplies.$inferSelect;
export type TicketAttachmentRow = typeof ticketAttachments.$inferSelect;
