/** /api/audit: the trail for admins: filters, page pagination, CSV export. Nothing can change or delete an event. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, ok, pagePagination, pageSchema } from '../../../contract/envelope';
import {
  AUDIT_MESSAGES,
  auditEventSchema,
  auditListQuerySchema,
  type AuditEvent,
} from '../../../contract/schemas/audit';
import { z } from 'zod';
import { notFound } from '../../lib/errors';
import type { AuditEventRow } from '../../db/schema';
import { createAuditRepository } from './repository';

const CSV_LIMIT = 50_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const toEvent = (r: AuditEventRow): AuditEvent => ({
  id: r.id,
  at: r.at.toISOString(),
  actor_id: r.actorId,
  actor_email: r.actorEmail,
  actor_role: r.actorRole,
  action: r.action,
  target_type: r.targetType,
  target_id: r.targetId,
  changes: (r.changes as Record<string, unknown> | null) ?? null,
  ip: r.ip,
  request_id: r.requestId,
});

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  // Quoted, and a leading formula character neutralised, so a spreadsheet shows the text and runs nothing.
  return `"${(/^[=+\-@]/.test(s) ? `'${s}` : s).replace(/"/g, '""')}"`;
};

const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const repository = createAuditRepository(app.db);
  app.get(
    '/',
    { schema: { querystring: auditListQuerySchema, response: { 200: envelope(pageSchema(auditEventSchema)) } } },
    async (request, reply) => {
      const q = request.query;
      if (q.format === 'csv') {
        const rows = await repository.first(q, CSV_LIMIT);
        const header = [
          'at',
          'actor_email',
          'actor_role',
          'actor_id',
          'action',
          'target_type',
          'target_id',
          'changes',
          'ip',
          'request_id',
        ];
        const lines = rows.map(toEvent).map((e) => header.map((h) => csvCell(e[h as keyof AuditEvent])).join(','));
        const csv = `${header.join(',')}\n${lines.join('\n')}${lines.length ? '\n' : ''}`;
        // Text with its own media type is sent as it is (Fastify serializes only JSON answers); the response schema
        // above is the JSON answer's, hence the cast.
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="audit-trail.csv"')
          .send(csv as never);
      }
      const { rows, total } = await repository.page(q, q.page, q.limit);
      return ok({ items: rows.map(toEvent), pagination: pagePagination(q.page, q.limit, total) }, AUDIT_MESSAGES.list);
    },
  );

  app.get(
    '/:id',
    { schema: { params: z.object({ id: z.string() }), response: { 200: envelope(auditEventSchema) } } },
    async (request) => {
      const { id } = request.params;
      const row = UUID.test(id) ? await repository.findById(id) : undefined;
      if (!row) throw notFound(AUDIT_MESSAGES.notFound);
      return ok(toEvent(row), AUDIT_MESSAGES.show);
    },
  );
};

export default auditRoutes;
