/** /api/backups: the kept backups for admins: list, take one now, download one (from whichever store keeps them). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../../contract/envelope';
import { BACKUP_MESSAGES as M, backupItemSchema, backupListSchema } from '../../../contract/schemas/backup';
import { AppError, conflict, notFound } from '../../lib/errors';
import { auditContext } from '../audit/trail';
import { BackupBusyError } from './service';

const backupRoutes: FastifyPluginAsyncZod = async (app) => {
  const { kept } = app.backups;

  app.get('/', { schema: { response: { 200: envelope(backupListSchema) } } }, async () =>
    ok(await kept.list(), M.list),
  );

  app.post('/', { schema: { response: { 201: envelope(backupItemSchema) } } }, async (request, reply) => {
    try {
      return reply.code(201).send(ok(await kept.take(auditContext(request)), M.created));
    } catch (error) {
      if (error instanceof BackupBusyError) throw conflict(M.inProgress);
      throw new AppError(500, `${M.failed}: ${(error as Error).message}`);
    }
  });

  app.get(
    '/:name/download',
    { schema: { params: z.object({ name: z.string().max(200) }) } },
    async (request, reply) => {
      const archive = await kept.open(request.params.name);
      if (!archive) throw notFound(M.notFound);
      try {
        await kept.downloaded(request.params.name, auditContext(request));
      } catch (error) {
        archive.stream.destroy();
        throw error;
      }
      return reply
        .type('application/gzip')
        .header('content-length', String(archive.size))
        .header('content-disposition', `attachment; filename="${request.params.name}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(archive.stream);
    },
  );
};

export default backupRoutes;
