/**
 * A plain CRUD API from a contract zod schema and a Drizzle table (issue 20). `crudModule(options)` is a Fastify
 * plugin, mounted under /api without a further prefix, that serves the resource at its own paths from the role
 * matrix (contract/roles.ts, the entry `options.name`): GET api (list), GET api/:id, POST api, PUT (or PATCH)
 * api/:id, DELETE api/:id, only the operations the entry gives an audience, each guarded by it like every route.
 *
 * Answers are the {success, message, data} envelope; the list is paginated ({items, pagination}) with search,
 * filters and sorting from the options. Every change runs in one transaction with its audit event. What is
 * special about a resource (rules, masking, its toggle's wording) is a hook; see CrudHooks.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { and, asc, count, desc, eq, getTableColumns, ilike, inArray, isNull, or, type SQL } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { ok, pagePagination } from '../../contract/envelope';
import { resourceAccess } from '../../contract/roles';
import type { Db } from '../db/client';
import { likePattern, totalOver, withTotal } from '../db/paging';
import type { Clock } from '../lib/clock';
import { conflict, notFound } from '../lib/errors';
import { auditContext, changedFields, recordAudit, type AuditContext } from '../modules/audit/trail';
import { columnsBySqlName, inputToRow, rowToRecord } from './mapping';
import { scopeSql, type Scope } from './scope';
import { envelope, pageSchema } from '../../contract/envelope';
import {
  defaultListQuery,
  defaultMessages,
  idParams,
  lowerFirst,
  partialWithoutDefaults,
  withArticle,
} from './schemas';

/** A table the factory serves: a uuid primary key `id` (defaultRandom); created_at/updated_at optional. */
export type CrudTable = PgTable & { id: PgColumn };

export type CrudAction = 'created' | 'updated' | 'deleted';

export interface CrudMessages {
  /** "Articles retrieved successfully" */
  list: string;
  /** "Article retrieved successfully" */
  detail: string;
  created: string;
  updated: string;
  deleted: string;
  /** 404 for an unknown (or not a uuid, or out of the caller's scope) id: "Article not found". */
  notFound: string;
  /** 409 for a unique violation no field could be named for (else "An article with this <field> already exists"). */
  conflict: string;
  /** 409 when a foreign key refuses the delete: "This article is in use and cannot be deleted". */
  inUse: string;
}

/** What a hook is given: the app (db, clock, settings...), the request, and the database handle to use. */
export interface CrudContext {
  app: FastifyInstance;
  request: FastifyRequest;
  /** Inside a change: its transaction (the audit event and the change commit together); else app.db. */
  db: Db;
  clock: Clock;
  /** Who acts (for the audit trail). */
  audit: AuditContext;
}

// biome-ignore lint/suspicious/noConfusingVoidType: a hook may return nothing at all (a void function), not only undefined
type Maybe<T> = T | void | undefined;
type Awaitable<T> = T | Promise<T>;

export interface CrudHooks<Row, NewRow, Rec, Input, Update> {
  /**
   * Limits what this caller sees: API field → a condition (see Scope), e.g. non-staff see { status: 'active' }
   * plans, a customer { owner_id: request.user.id, publish_on: { lte: today } }. The list is filtered by it AND by
   * the caller's own filters (a filter on the same field narrows the scope further, it never replaces it); an id
   * outside it answers 404 (show, update, delete).
   */
  scope?(request: FastifyRequest): Scope | undefined;
  /** The record of a row (show, create, update answers). Default: by the columns' SQL names (mapping.ts). */
  toRecord?(row: Row, ctx: CrudContext): Rec;
  /** A list item (default: toRecord), e.g. a lighter shape for some callers; see schemas.listItem. */
  toListItem?(row: Row, ctx: CrudContext): unknown;
  /**
   * The row values of a create body, before its transaction (so it may read settings through app.db; PGlite has
   * one connection, and a query outside a transaction waits for it to end). `mapped`: the default, the body's
   * fields by the columns' SQL names.
   */
  toRow?(input: Input, ctx: CrudContext, mapped: NewRow): Awaitable<NewRow>;
  /**
   * In the create's transaction, before the insert: may change the values (returned) or throw (4xx). Use
   * ctx.db (the transaction) here, never app.db: see toRow.
   */
  beforeCreate?(values: NewRow, input: Input, ctx: CrudContext): Awaitable<Maybe<NewRow>>;
  /** In the update's transaction, with the row locked: may change the values (returned) or throw. */
  beforeUpdate?(
    before: Row,
    values: Partial<NewRow>,
    input: Update,
    ctx: CrudContext,
  ): Awaitable<Maybe<Partial<NewRow>>>;
  /** In the delete's transaction, with the row locked: throw (e.g. a 409) to refuse. */
  beforeDelete?(before: Row, ctx: CrudContext): Awaitable<void>;
  /** After the commit (caches, RADIUS reloads). A failure is logged; the answer stands. */
  afterChange?(
    action: CrudAction,
    change: { before: Row | null; after: Row | null },
    ctx: CrudContext,
  ): Awaitable<void>;
  /** The answer's message (default: messages.created/updated/deleted), e.g. "Plan activated successfully". */
  message?(action: CrudAction, record: Rec, input: Input | Update | null): string | undefined;
  /** The audit action (default `<targetType>.<action>`), e.g. plan.activated. */
  auditAction?(action: CrudAction, record: Rec, input: Input | Update | null): string | undefined;
  /** The audit event's changes (default: changedFields of the records, nothing secret-aware). */
  auditChanges?(before: Row | null, after: Row | null, ctx: CrudContext): Record<string, unknown>;
  /** The 409 message for a unique violation of this constraint (undefined: the default one). */
  conflictMessage?(constraint: string): string | undefined;
}

export interface CrudModuleOptions<
  TTable extends CrudTable,
  TRecord extends z.ZodObject,
  TInput extends z.ZodObject,
  TUpdate extends z.ZodType,
> {
  /** The resource's entry in the role matrix (contract/roles.ts): its `api` path and who may call what. */
  name: string;
  table: TTable;
  schemas: {
    /** What the API returns: snake_case fields, dates as ISO strings. */
    record: TRecord;
    /** The create body. */
    input: TInput;
    /** The update body (default: every input field optional, without its default: a field left out stays unchanged). */
    update?: TUpdate;
    /** The list's query (default: page, limit, sort, order, search and the filters, from the options below). */
    listQuery?: z.ZodType;
    /** A list item, when toListItem answers another shape than the record. */
    listItem?: z.ZodType;
  };
  /** "Article": the messages are made from it. */
  label: string;
  messages?: Partial<CrudMessages>;
  /** API fields searched (ilike, the pattern escaped) by ?search=. */
  search?: readonly string[];
  /** API fields filtered by equality (?status=...), validated against the record schema's field. */
  filters?: readonly string[];
  /** API fields ?sort= accepts (with ?order=asc|desc). */
  sorters?: readonly string[];
  /** Default: created_at desc when the table has it, else id. */
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  /** Fields that order rows the sort leaves equal, ascending, before the id (e.g. ['name']). */
  tieBreak?: readonly string[];
  /** false: the list answers every matching record as an array, unpaginated (small tables only). Default true. */
  paginate?: boolean;
  /** Audit events `<targetType>.created|updated|deleted` (default targetType: name); false: none. */
  audit?: { targetType?: string } | false;
  hooks?: CrudHooks<
    TTable['$inferSelect'],
    TTable['$inferInsert'],
    z.output<TRecord>,
    z.output<TInput>,
    UpdateOf<TInput, TUpdate>
  >;
}

type UpdateOf<TInput extends z.ZodObject, TUpdate extends z.ZodType> =
  unknown extends z.output<TUpdate> ? Partial<z.output<TInput>> : z.output<TUpdate>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The PostgreSQL error of this code in an error's cause chain (node-postgres and PGlite, possibly wrapped). */
function pgError(error: unknown, code: string): { constraint?: string } | null {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    if (typeof e === 'object' && (e as { code?: unknown }).code === code) return e as { constraint?: string };
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

export function crudModule<
  TTable extends CrudTable,
  TRecord extends z.ZodObject,
  TInput extends z.ZodObject,
  TUpdate extends z.ZodType = z.ZodType,
>(options: CrudModuleOptions<TTable, TRecord, TInput, TUpdate>): FastifyPluginAsync {
  type Row = TTable['$inferSelect'];
  type NewRow = TTable['$inferInsert'];
  type Rec = z.output<TRecord>;
  type Input = z.output<TInput>;
  type Update = UpdateOf<TInput, TUpdate>;

  const plugin: FastifyPluginAsync = async (app) => {
    const access = resourceAccess(options.name);
    if (!access)
      throw new Error(
        `crudModule: the role matrix (contract/roles.ts) has no resource "${options.name}"; add its entry with an api path.`,
      );
    if (!access.api)
      throw new Error(
        `crudModule: the role matrix entry "${options.name}" has no api path, so it has no endpoints to serve.`,
      );
    const base = access.api;
    const one = `${base}/:id`;

    const { table, label, hooks = {} } = options;
    const loose = table as PgTable;
    const recordShape = options.schemas.record.shape as Record<string, z.ZodType>;
    const messages: CrudMessages = { ...defaultMessages(label), ...options.messages };
    const explicitConflict = options.messages?.conflict;
    const columns = columnsBySqlName(loose);
    const column = (field: string): PgColumn => {
      const c = columns.get(field)?.column;
      if (!c)
        throw new Error(
          `crudModule "${options.name}": no column named ${field} in table ${getTableConfig(loose).name}.`,
        );
      return c;
    };
    const idColumn = table.id;
    const createdKey = columns.get('created_at')?.key;
    const updatedKey = columns.get('updated_at')?.key;
    const search = options.search ?? [];
    const filters = options.filters ?? [];
    const sorters = options.sorters ?? [];
    const defaultSort =
      options.defaultSort ??
      (createdKey ? { field: 'created_at', order: 'desc' as const } : { field: 'id', order: 'asc' as const });
    const paginate = options.paginate ?? true;
    for (const field of [...search, ...filters, ...sorters, defaultSort.field, ...(options.tieBreak ?? [])])
      column(field);
    for (const field of filters)
      if (!recordShape[field])
        throw new Error(`crudModule "${options.name}": filter ${field} is not a field of the record schema.`);

    const toRecord = (row: Row, ctx: CrudContext): Rec =>
      hooks.toRecord ? hooks.toRecord(row, ctx) : defaultRecord(row);
    const defaultRecord = rowToRecord(loose, options.schemas.record) as (row: Row) => Rec;
    const defaultRow = inputToRow(loose);
    const updateSchema = options.schemas.update ?? partialWithoutDefaults(options.schemas.input);
    const listQuery =
      options.schemas.listQuery ?? defaultListQuery({ paginate, sorters, search, filters, record: recordShape });
    const listItem = options.schemas.listItem ?? options.schemas.record;
    const targetType = options.audit === false ? null : (options.audit?.targetType ?? options.name);

    const context = (request: FastifyRequest, db: Db = app.db): CrudContext => ({
      app,
      request,
      db,
      clock: app.clock,
      audit: auditContext(request),
    });
    // A filter's or a scope's array value is "one of these" (e.g. the providers customers may pay with).
    const equal = (field: string, value: unknown): SQL =>
      value === null
        ? isNull(column(field))
        : Array.isArray(value)
          ? inArray(column(field), value)
          : eq(column(field), value);
    const scopeConditions = (scope: Scope | undefined): SQL[] =>
      scopeSql(scope, column, `crudModule "${options.name}"`);

    /** The row of this id within the caller's scope (locked for a change), or 404. */
    async function find(db: Db, request: FastifyRequest, id: string, lock: boolean): Promise<Row> {
      if (!UUID.test(id)) throw notFound(messages.notFound);
      const query = db
        .select()
        .from(loose)
        .where(and(eq(idColumn, id), ...scopeConditions(hooks.scope?.(request))))
        .limit(1);
      const [row] = (lock ? await query.for('update') : await query) as Row[];
      if (!row) throw notFound(messages.notFound);
      return row;
    }

    /** The API field a unique constraint is on, when it can be told (its index's first column, or its name). */
    function conflictField(constraint: string): string | undefined {
      const index = getTableConfig(loose).indexes.find((i) => i.config.name === constraint);
      const first = index?.config.columns[0] as { name?: unknown } | undefined;
      if (typeof first?.name === 'string' && recordShape[first.name]) return first.name;
      const named = [...columns.keys()].filter(
        (name) =>
          recordShape[name] &&
          new RegExp(`(^|_)${name}(_|$)`).test(constraint.replace(`${getTableConfig(loose).name}_`, '')),
      );
      return named.sort((a, b) => b.length - a.length)[0];
    }

    function conflictMessage(constraint: string): string {
      const fromHook = hooks.conflictMessage?.(constraint);
      if (fromHook) return fromHook;
      if (explicitConflict) return explicitConflict;
      const field = conflictField(constraint);
      return field ? `${withArticle(label)} with this ${field} already exists` : messages.conflict;
    }

    /** Runs a change in one transaction; unique and foreign-key violations become 409s. */
    async function change<T>(
      request: FastifyRequest,
      action: CrudAction,
      work: (ctx: CrudContext) => Promise<T>,
    ): Promise<T> {
      try {
        return await app.db.transaction((tx) => work(context(request, tx as unknown as Db)));
      } catch (error) {
        const unique = pgError(error, '23505');
        if (unique) throw conflict(conflictMessage(String(unique.constraint ?? '')));
        // foreign_key_violation, or restrict_violation for ON DELETE RESTRICT.
        if (action === 'deleted' && (pgError(error, '23503') || pgError(error, '23001')))
          throw conflict(messages.inUse);
        throw error;
      }
    }

    async function audit(
      ctx: CrudContext,
      action: CrudAction,
      id: string,
      before: Row | null,
      after: Row | null,
      input: Input | Update | null,
    ) {
      if (!targetType) return;
      const beforeRecord = before ? (toRecord(before, ctx) as Record<string, unknown>) : {};
      const afterRecord = after ? (toRecord(after, ctx) as Record<string, unknown>) : {};
      const changes = hooks.auditChanges
        ? hooks.auditChanges(before, after, ctx)
        : changedFields(beforeRecord, afterRecord, { ignore: action === 'updated' ? [] : ['id', 'created_at'] });
      const record = (after ?? before) as Row;
      await recordAudit(ctx.db, ctx.clock, ctx.audit, {
        action: hooks.auditAction?.(action, toRecord(record, ctx), input) ?? `${targetType}.${action}`,
        targetType,
        targetId: id,
        changes,
      });
    }

    async function afterChange(action: CrudAction, before: Row | null, after: Row | null, request: FastifyRequest) {
      if (!hooks.afterChange) return;
      try {
        await hooks.afterChange(action, { before, after }, context(request));
      } catch (error) {
        request.log.error({ err: error, resource: options.name, action }, 'after-change hook failed');
      }
    }

    const answer = (action: CrudAction, record: Rec, input: Input | Update | null) =>
      ok(record, hooks.message?.(action, record, input) ?? messages[action]);

    const summaries = {
      list: `List ${lowerFirst(label)}s`,
      show: `Get ${withArticle(label).toLowerCase()}`,
      create: `Create ${withArticle(label).toLowerCase()}`,
      update: `Change ${withArticle(label).toLowerCase()}`,
      delete: `Delete ${withArticle(label).toLowerCase()}`,
    };

    if (access.list !== undefined) {
      app.route({
        method: 'GET',
        url: base,
        schema: {
          summary: summaries.list,
          querystring: listQuery,
          response: { 200: envelope(paginate ? pageSchema(listItem) : z.array(listItem)) },
        },
        handler: async (request) => {
          const q = request.query as Record<string, unknown>;
          // The caller's filters AND the scope: a filter on a scoped field narrows the scope, never widens it.
          const conditions: SQL[] = scopeConditions(hooks.scope?.(request));
          for (const field of filters) if (q[field] !== undefined) conditions.push(equal(field, q[field]));
          if (search.length && typeof q.search === 'string' && q.search !== '') {
            const pattern = likePattern(q.search);
            conditions.push(or(...search.map((f) => ilike(column(f), pattern)))!);
          }
          const where = conditions.length ? and(...conditions) : undefined;
          const sortField = typeof q.sort === 'string' && sorters.includes(q.sort) ? q.sort : defaultSort.field;
          const direction =
            (q.order ?? (sortField === defaultSort.field ? defaultSort.order : 'asc')) === 'desc' ? desc : asc;
          const orderBy = [
            direction(column(sortField)),
            ...(options.tieBreak ?? []).filter((f) => f !== sortField).map((f) => asc(column(f))),
            ...(sortField === 'id' ? [] : [direction(idColumn)]),
          ];
          const ctx = context(request);
          const item = (row: Row) => (hooks.toListItem ? hooks.toListItem(row, ctx) : toRecord(row, ctx));
          if (!paginate) {
            const rows = (await app.db
              .select()
              .from(loose)
              .where(where)
              .orderBy(...orderBy)) as Row[];
            return ok(rows.map(item), messages.list);
          }
          const page = Number(q.page ?? 1);
          const limit = Number(q.limit ?? 20);
          const offset = (page - 1) * limit;
          const rows = await app.db
            .select({ ...getTableColumns(loose), total: totalOver() })
            .from(loose)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset);
          const { items, total } = await withTotal(rows as Array<Row & { total: number }>, offset, async () =>
            Number((await app.db.select({ total: count() }).from(loose).where(where))[0].total),
          );
          return ok(
            { items: (items as Row[]).map(item), pagination: pagePagination(page, limit, total) },
            messages.list,
          );
        },
      });
    }

    if (access.show !== undefined) {
      app.route({
        method: 'GET',
        url: one,
        schema: { summary: summaries.show, params: idParams, response: { 200: envelope(options.schemas.record) } },
        handler: async (request) => {
          const { id } = request.params as { id: string };
          return ok(toRecord(await find(app.db, request, id, false), context(request)), messages.detail);
        },
      });
    }

    if (access.create !== undefined) {
      app.route({
        method: 'POST',
        url: base,
        schema: {
          summary: summaries.create,
          body: options.schemas.input,
          response: { 201: envelope(options.schemas.record) },
        },
        handler: async (request, reply) => {
          const input = request.body as Input;
          const mapped = defaultRow(input);
          const prepared = (
            hooks.toRow ? await hooks.toRow(input, context(request), mapped as NewRow) : mapped
          ) as Record<string, unknown>;
          const row = await change(request, 'created', async (ctx) => {
            let values = { ...prepared };
            const now = ctx.clock.now();
            if (createdKey && values[createdKey] === undefined) values[createdKey] = now;
            if (updatedKey && values[updatedKey] === undefined) values[updatedKey] = now;
            values = ((await hooks.beforeCreate?.(values as NewRow, input, ctx)) ?? values) as Record<string, unknown>;
            const [inserted] = (await ctx.db
              .insert(loose)
              .values(values as never)
              .returning()) as Row[];
            await audit(ctx, 'created', String((inserted as Record<string, unknown>).id), null, inserted, input);
            return inserted;
          });
          await afterChange('created', null, row, request);
          return reply.code(201).send(answer('created', toRecord(row, context(request)), input));
        },
      });
    }

    if (access.update !== undefined) {
      app.route({
        method: access.updateMethod ?? 'PUT',
        url: one,
        schema: {
          summary: summaries.update,
          params: idParams,
          body: updateSchema,
          response: { 200: envelope(options.schemas.record) },
        },
        handler: async (request) => {
          const { id } = request.params as { id: string };
          const input = request.body as Update;
          const { before, after } = await change(request, 'updated', async (ctx) => {
            const current = await find(ctx.db, request, id, true);
            let values = defaultRow(input as object);
            if (updatedKey) values[updatedKey] = ctx.clock.now();
            values = ((await hooks.beforeUpdate?.(current, values as Partial<NewRow>, input, ctx)) ?? values) as Record<
              string,
              unknown
            >;
            let updated = current;
            if (Object.keys(values).length) {
              [updated] = (await ctx.db
                .update(loose)
                .set(values as never)
                .where(eq(idColumn, id))
                .returning()) as Row[];
              if (!updated) throw notFound(messages.notFound);
            }
            await audit(ctx, 'updated', id, current, updated, input);
            return { before: current, after: updated };
          });
          await afterChange('updated', before, after, request);
          return answer('updated', toRecord(after, context(request)), input);
        },
      });
    }

    if (access.delete !== undefined) {
      app.route({
        method: 'DELETE',
        url: one,
        schema: { summary: summaries.delete, params: idParams, response: { 200: envelope(z.null()) } },
        handler: async (request) => {
          const { id } = request.params as { id: string };
          const before = await change(request, 'deleted', async (ctx) => {
            const current = await find(ctx.db, request, id, true);
            await hooks.beforeDelete?.(current, ctx);
            const removed = await ctx.db.delete(loose).where(eq(idColumn, id)).returning({ id: idColumn });
            if (!removed.length) throw notFound(messages.notFound);
            await audit(ctx, 'deleted', id, current, null, null);
            return current;
          });
          await afterChange('deleted', before, null, request);
          return ok(null, hooks.message?.('deleted', toRecord(before, context(request)), null) ?? messages.deleted);
        },
      });
    }
  };
  return plugin;
}

export { onlySent } from './schemas';
export type { Scope } from './scope';
