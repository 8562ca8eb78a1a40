/**
 * The bare baseline of `npm run bench:http`: a plain Fastify server (no auth, no validation, no hooks, no logging)
 * on the same database as the portal, answering the same list pages with the same two queries each (the page and
 * its count, in parallel, like the portal's repositories) in the same envelope. PostgreSQL through a `pg` Pool of
 * the portal's size when DATABASE_URL is set, else PGlite on PGLITE_DIR in its own thread, as the portal runs it.
 * Listens on PORT, prints "ready".
 */
import Fastify from 'fastify';

type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

async function connect(): Promise<{ query: Query; close(): Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const { Pool } = await import('pg');
    const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
    return { query: (text) => pool.query(text), close: () => pool.end() };
  }
  // The embedded database as the portal runs it: PGlite in its own thread (server/db/pglite-remote.ts).
  const { RemotePGlite } = await import('../server/db/pglite-remote');
  const pg = await RemotePGlite.create({ dataDir: process.env.PGLITE_DIR! });
  return { query: (text) => pg.query<Record<string, unknown>>(text), close: () => pg.close() };
}

const PAGES: Record<string, { items: string; count: string }> = {
  plans: {
    items: 'select * from plans order by sort_order asc, name asc, id asc limit 20 offset 0',
    count: 'select count(*) as total from plans',
  },
  users: {
    items: 'select * from users order by created_at desc, id desc limit 20 offset 0',
    count: 'select count(*) as total from users',
  },
  tickets: {
    items:
      'select t.*, c.name as created_by_name, a.name as assigned_to_name from tickets t join users c on c.id = t.created_by left join users a on a.id = t.assigned_to order by t.updated_at desc, t.id desc limit 20 offset 0',
    count: 'select count(*) as total from tickets t join users c on c.id = t.created_by',
  },
  subscriptions: {
    items:
      'select s.*, p.name as plan_name, u.name as user_name, u.email as user_email from subscriptions s join plans p on p.id = s.plan_id join users u on u.id = s.user_id order by s.created_at desc, s.id desc limit 20 offset 0',
    count:
      'select count(*) as total from subscriptions s join plans p on p.id = s.plan_id join users u on u.id = s.user_id',
  },
};

const db = await connect();
const app = Fastify({ logger: false });
for (const [name, page] of Object.entries(PAGES)) {
  app.get(`/api/${name}`, async () => {
    const [items, count] = await Promise.all([db.query(page.items), db.query(page.count)]);
    const total = Number(count.rows[0].total);
    return {
      success: true,
      message: 'OK',
      data: {
        items: items.rows,
        pagination: {
          page: 1,
          totalPages: Math.max(1, Math.ceil(total / 20)),
          total,
          hasNext: total > 20,
          hasPrev: false,
        },
      },
    };
  });
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
const stop = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
