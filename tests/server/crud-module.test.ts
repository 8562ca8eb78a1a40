/**
 * Issue 20: the CRUD factory. A fixture resource declared only here (never shipped): its role-matrix entry, its
 * table (raw SQL), a Drizzle table and zod schemas, mounted as an extra route plugin. The factory serves its five
 * endpoints at the matrix's paths with the matrix's audiences, pages, filters, sorts and searches the list,
 * validates, answers 404/409 in the envelope, records audit events and documents itself in the OpenAPI document.
 */
import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerResourceAccess } from '../../contract/roles';
import { crudModule } from '../../server/crud/crud-module';
import { scopeSql } from '../../server/crud/scope';
import { rowsOf } from '../helpers/audit';
import { createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';
import { FIXTURE_NOTES_ACCESS } from '../helpers/fixture-resource';

const STATUSES = ['draft', 'published'] as const;

const fixtureNotes = pgTable(
  'fixture_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: varchar('title', { length: 80 }).notNull(),
    body: text('body').notNull().default(''),
    status: varchar('status', { length: 16, enum: STATUSES }).notNull().default('draft'),
    wordCount: integer('word_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('fixture_notes_title_unique').on(t.title)],
);

const noteSchema = z.object({
  id: z.string().uuid(),
  title: z.string(),
  body: z.string(),
  status: z.enum(STATUSES),
  word_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
const noteInputSchema = z.object({
  title: z
    .string({ message: 'Title is required' })
    .trim()
    .min(2, { message: 'Title must be at least 2 characters' })
    .max(80),
  body: z.string().max(2000).optional().default(''),
  status: z.enum(STATUSES, { message: 'Status must be draft or published' }).optional().default('draft'),
  word_count: z.number().int().min(0).optional().default(0),
});

const notesModule = crudModule({
  name: 'fixture-notes',
  table: fixtureNotes,
  schemas: { record: noteSchema, input: noteInputSchema },
  label: 'Fixture note',
  search: ['title', 'body'],
  filters: ['status', 'word_count'],
  sorters: ['title', 'word_count', 'created_at'],
  defaultSort: { field: 'created_at', order: 'desc' },
  audit: { targetType: 'fixture-note' },
});

// The same table as a second resource whose callers other than admin see only the published notes of 5 to 10 words:
// a scope with comparisons, not only equality.
const scopedNotesModule = crudModule({
  name: 'fixture-scoped-notes',
  table: fixtureNotes,
  schemas: { record: noteSchema, input: noteInputSchema },
  label: 'Scoped note',
  filters: ['status', 'word_count'],
  sorters: ['title'],
  defaultSort: { field: 'title', order: 'asc' },
  audit: false,
  hooks: {
    scope: (request) =>
      request.user?.role === 'admin' ? undefined : { word_count: { gte: 5, lte: 10 }, status: { in: ['published'] } },
  },
});

let t: TestApp;
let call: CallAs;
let unregister: () => void;
let unregisterScoped: () => void;

beforeAll(async () => {
  unregister = registerResourceAccess('fixture-notes', FIXTURE_NOTES_ACCESS);
  unregisterScoped = registerResourceAccess('fixture-scoped-notes', {
    route: '/dashboard/fixture-scoped-notes',
    api: '/fixture-scoped-notes',
    list: ['admin', 'support'],
    show: ['admin', 'support'],
    update: ['admin', 'support'],
  });
  t = await createTestApp({ extraRoutes: [notesModule, scopedNotesModule] });
  await t.database.db.execute(sql`
    create table fixture_notes (
      id uuid primary key default gen_random_uuid(),
      title varchar(80) not null,
      body text not null default '',
      status varchar(16) not null default 'draft',
      word_count integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
  await t.database.db.execute(sql`create unique index fixture_notes_title_unique on fixture_notes (title)`);
  call = await signInEveryRole(t);
});
afterAll(async () => {
  await t?.close();
  unregister?.();
  unregisterScoped?.();
});

const noteCount = async () =>
  Number(rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from fixture_notes`))[0].n);

describe('a crudModule resource', () => {
  let first: { id: string; title: string; created_at: string };

  it('creates (201) with the defaults applied, and refuses invalid input (400 naming the fields) writing nothing', async () => {
    const created = await call('POST', '/fixture-notes', 'admin', {
      title: 'Alpha note',
      body: 'about fiber',
      word_count: 3,
      id: '00000000-0000-4000-8000-000000000000',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      success: true,
      message: 'Fixture note created successfully',
      data: { title: 'Alpha note', status: 'draft', word_count: 3 },
    });
    first = created.json().data;
    expect(first.id).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(new Date(first.created_at).toISOString()).toBe(first.created_at);

    const before = await noteCount();
    const bad = await call('POST', '/fixture-notes', 'admin', { title: 'x', status: 'archived' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().success).toBe(false);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['status', 'title']);
    const empty = await call('POST', '/fixture-notes', 'admin');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual([{ field: 'title', message: 'title is required' }]);
    expect(await noteCount()).toBe(before);
  });

  it('lists with pagination, filters, sorting and search', async () => {
    for (const [title, body, status, word_count] of [
      ['Bravo note', 'copper 100%', 'published', 10],
      ['Charlie note', 'FIBER rollout', 'published', 7],
      ['Delta note', 'wireless', 'draft', 7],
    ] as const) {
      t.clock.advance(1_000);
      expect((await call('POST', '/fixture-notes', 'admin', { title, body, status, word_count })).statusCode).toBe(201);
    }
    const list = async (query: string) => {
      const res = await call('GET', `/fixture-notes${query}`, 'support');
      expect([query, res.statusCode]).toEqual([query, 200]);
      return res.json();
    };
    const titles = (body: { data: { items: Array<{ title: string }> } }) => body.data.items.map((n) => n.title);

    const all = await list('');
    expect(all.message).toBe('Fixture notes retrieved successfully');
    // Newest first by default.
    expect(titles(all)).toEqual(['Delta note', 'Charlie note', 'Bravo note', 'Alpha note']);
    expect(all.data.pagination).toEqual({ page: 1, totalPages: 1, total: 4, hasNext: false, hasPrev: false });

    const page2 = await list('?limit=3&page=2&sort=title&order=asc');
    expect(titles(page2)).toEqual(['Delta note']);
    expect(page2.data.pagination).toEqual({ page: 2, totalPages: 2, total: 4, hasNext: false, hasPrev: true });
    expect(titles(await list('?sort=title&order=desc'))).toEqual([
      'Delta note',
      'Charlie note',
      'Bravo note',
      'Alpha note',
    ]);
    // Equal word counts keep a stable order (the id breaks the tie).
    expect(
      (await list('?sort=word_count&order=asc')).data.items.map((n: { word_count: number }) => n.word_count),
    ).toEqual([3, 7, 7, 10]);

    expect(titles(await list('?status=published&sort=title&order=asc'))).toEqual(['Bravo note', 'Charlie note']);
    expect(titles(await list('?word_count=7&sort=title&order=asc'))).toEqual(['Charlie note', 'Delta note']);
    expect(titles(await list('?search=fiber&sort=title&order=asc'))).toEqual(['Alpha note', 'Charlie note']);
    // The pattern's % is a character, not a wildcard.
    expect(titles(await list('?search=100%25'))).toEqual(['Bravo note']);
    expect(titles(await list('?search=%25'))).toEqual(['Bravo note']);
    expect((await list('?page=9')).data).toEqual({
      items: [],
      pagination: { page: 9, totalPages: 1, total: 4, hasNext: false, hasPrev: true },
    });

    for (const query of ['?limit=101', '?status=archived', '?sort=body', '?order=up', '?word_count=many', '?page=0']) {
      const res = await call('GET', `/fixture-notes${query}`, 'admin');
      expect([query, res.statusCode, res.json().success]).toEqual([query, 400, false]);
    }
  });

  it('shows one, and answers 404 for an unknown id or one that is not a uuid', async () => {
    const shown = await call('GET', `/fixture-notes/${first.id}`, 'support');
    expect(shown.json()).toMatchObject({
      success: true,
      message: 'Fixture note retrieved successfully',
      data: { id: first.id, title: 'Alpha note' },
    });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      for (const [method, payload] of [['GET'], ['PUT', { title: 'Nope' }], ['DELETE']] as const) {
        const res = await call(method, `/fixture-notes/${id}`, 'admin', payload);
        expect([method, id, res.statusCode, res.json()]).toEqual([
          method,
          id,
          404,
          { success: false, message: 'Fixture note not found' },
        ]);
      }
    }
  });

  it('updates the fields sent, and refuses a duplicate (409) without changing anything', async () => {
    t.clock.advance(5_000);
    const updated = await call('PUT', `/fixture-notes/${first.id}`, 'admin', { body: 'about fiber and copper' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      message: 'Fixture note updated successfully',
      data: { title: 'Alpha note', body: 'about fiber and copper', created_at: first.created_at },
    });
    expect(updated.json().data.updated_at).not.toBe(first.created_at);

    const duplicate = await call('PUT', `/fixture-notes/${first.id}`, 'admin', {
      title: 'Bravo note',
      body: 'changed?',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ success: false, message: 'A fixture note with this title already exists' });
    expect((await call('POST', '/fixture-notes', 'admin', { title: 'Bravo note' })).statusCode).toBe(409);
    expect((await call('GET', `/fixture-notes/${first.id}`, 'admin')).json().data).toMatchObject({
      title: 'Alpha note',
      body: 'about fiber and copper',
    });
    const invalid = await call('PUT', `/fixture-notes/${first.id}`, 'admin', { word_count: -1 });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors.map((e: { field: string }) => e.field)).toEqual(['word_count']);
  });

  it('deletes', async () => {
    const victim = (await call('POST', '/fixture-notes', 'admin', { title: 'Short-lived' })).json().data;
    const deleted = await call('DELETE', `/fixture-notes/${victim.id}`, 'admin');
    expect(deleted.json()).toEqual({ success: true, message: 'Fixture note deleted successfully', data: null });
    expect((await call('GET', `/fixture-notes/${victim.id}`, 'admin')).statusCode).toBe(404);
  });

  it('records an audit event per change, in the same transaction', async () => {
    const events = (await call('GET', `/audit?target_type=fixture-note&target_id=${first.id}`, 'admin')).json().data
      .items as Array<{ action: string; actor_role: string; changes: Record<string, unknown> }>;
    expect(events.map((e) => e.action)).toEqual(['fixture-note.updated', 'fixture-note.created']);
    expect(events[0]).toMatchObject({
      actor_role: 'admin',
      changes: { body: { from: 'about fiber', to: 'about fiber and copper' } },
    });
    expect(Object.keys(events[0].changes)).toEqual(['body']);
    expect(events[1].changes).toMatchObject({
      title: { from: null, to: 'Alpha note' },
      word_count: { from: null, to: 3 },
    });
    const actions = (
      (await call('GET', '/audit?target_type=fixture-note&limit=100', 'admin')).json().data.items as Array<{
        action: string;
      }>
    ).map((e) => e.action);
    expect(actions).toContain('fixture-note.deleted');
    // The refused duplicate wrote no event: five creates, one update, one delete.
    expect(actions.filter((a) => a === 'fixture-note.created')).toHaveLength(5);
    expect(actions.filter((a) => a === 'fixture-note.updated')).toHaveLength(1);
  });

  it('guards each operation with the role matrix entry', async () => {
    expect((await call('GET', '/fixture-notes', 'support')).statusCode).toBe(200);
    expect((await call('GET', `/fixture-notes/${first.id}`, 'support')).statusCode).toBe(200);
    expect((await call('POST', '/fixture-notes', 'support', { title: 'By support' })).statusCode).toBe(403);
    expect((await call('PUT', `/fixture-notes/${first.id}`, 'support', { title: 'By support' })).statusCode).toBe(403);
    expect((await call('DELETE', `/fixture-notes/${first.id}`, 'support')).statusCode).toBe(403);
    for (const role of ['technician', 'billing', 'user'] as const)
      expect([role, (await call('GET', '/fixture-notes', role)).statusCode]).toEqual([role, 403]);
    expect((await call('GET', '/fixture-notes')).statusCode).toBe(401);
    expect((await call('POST', '/fixture-notes', undefined, { title: 'By a visitor' })).statusCode).toBe(401);
    expect((await call('POST', '/fixture-notes', 'super_admin', { title: 'By super admin' })).statusCode).toBe(201);
  });

  it('is in the OpenAPI document with its roles, parameters and answers', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths['/api/fixture-notes']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/fixture-notes/{id}']).sort()).toEqual(['delete', 'get', 'put']);
    const list = doc.paths['/api/fixture-notes'].get;
    expect(list['x-roles']).toEqual(['admin', 'support', 'super_admin']);
    expect(list.tags).toEqual(['fixture-notes']);
    expect(list.summary).toBe('List fixture notes');
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'limit',
      'order',
      'page',
      'search',
      'sort',
      'status',
      'word_count',
    ]);
    expect(list.responses['200'].content['application/json'].schema.properties.data.properties).toHaveProperty(
      'pagination',
    );
    const create = doc.paths['/api/fixture-notes'].post;
    expect(create['x-roles']).toEqual(['admin', 'super_admin']);
    expect(create.responses).toHaveProperty('201');
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['title']);
  });
});

describe('a crudModule scope', () => {
  // The notes the first describe left: Alpha (3 words, draft), Bravo (10, published), Charlie (7, published),
  // Delta (7, draft), By super admin (0, draft).
  const titles = async (query: string, role: 'admin' | 'support') => {
    const res = await call('GET', `/fixture-scoped-notes${query}`, role);
    expect([query, res.statusCode]).toEqual([query, 200]);
    return (res.json().data.items as Array<{ title: string }>).map((n) => n.title);
  };

  it('limits the list with comparisons (gte, lte, in), and a filter on a scoped field narrows it, never replaces it', async () => {
    expect(await titles('', 'admin')).toEqual([
      'Alpha note',
      'Bravo note',
      'By super admin',
      'Charlie note',
      'Delta note',
    ]);
    expect(await titles('', 'support')).toEqual(['Bravo note', 'Charlie note']);
    expect(await titles('?word_count=7', 'support')).toEqual(['Charlie note']);
    // Outside the scope: nothing, not the scope's notes in the filter's place.
    expect(await titles('?word_count=3', 'support')).toEqual([]);
    expect(await titles('?status=draft', 'support')).toEqual([]);
    expect(await titles('?status=draft&word_count=7', 'admin')).toEqual(['Delta note']);
  });

  it('answers 404 for a record outside the scope, to show and to update, and changes nothing', async () => {
    const all = (await call('GET', '/fixture-notes?limit=100', 'admin')).json().data.items as Array<{
      id: string;
      title: string;
    }>;
    const id = (title: string) => all.find((n) => n.title === title)!.id;
    expect((await call('GET', `/fixture-scoped-notes/${id('Charlie note')}`, 'support')).statusCode).toBe(200);
    for (const outside of ['Delta note', 'Alpha note']) {
      expect((await call('GET', `/fixture-scoped-notes/${id(outside)}`, 'support')).json()).toEqual({
        success: false,
        message: 'Scoped note not found',
      });
      expect(
        (await call('PUT', `/fixture-scoped-notes/${id(outside)}`, 'support', { body: 'changed' })).statusCode,
      ).toBe(404);
      expect((await call('GET', `/fixture-scoped-notes/${id(outside)}`, 'admin')).json().data.body).not.toBe('changed');
    }
  });

  it('refuses a scope with an unknown comparison or an empty one, naming the field', () => {
    const column = (field: string) => ({ word_count: fixtureNotes.wordCount, status: fixtureNotes.status })[field]!;
    expect(scopeSql({ word_count: { gte: 5, lte: 10 }, status: ['draft'] }, column, 'notes')).toHaveLength(2);
    expect(() => scopeSql({ word_count: { atLeast: 5 } as never }, column, 'notes')).toThrow(
      'notes: the scope of word_count has an unknown comparison "atLeast"',
    );
    expect(() => scopeSql({ status: {} }, column, 'notes')).toThrow('notes: the scope of status is an empty condition');
  });
});

describe('crudModule registration', () => {
  it('refuses a resource the role matrix does not have, or one without an api path', async () => {
    const missing = Fastify({ logger: false });
    await expect(
      missing
        .register(
          crudModule({
            name: 'fixture-nowhere',
            table: fixtureNotes,
            schemas: { record: noteSchema, input: noteInputSchema },
            label: 'Nowhere',
          }),
        )
        .ready(),
    ).rejects.toThrow(/role matrix \(contract\/roles\.ts\) has no resource "fixture-nowhere"/);
    const screenOnly = registerResourceAccess('fixture-screen-only', {
      route: '/dashboard/fixture-screen-only',
      screen: ['admin'],
    });
    try {
      const app = Fastify({ logger: false });
      await expect(
        app
          .register(
            crudModule({
              name: 'fixture-screen-only',
              table: fixtureNotes,
              schemas: { record: noteSchema, input: noteInputSchema },
              label: 'Screen',
            }),
          )
          .ready(),
      ).rejects.toThrow(/"fixture-screen-only" has no api path/);
    } finally {
      screenOnly();
    }
  });
});
