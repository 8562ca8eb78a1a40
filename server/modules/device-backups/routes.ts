/**
 * /api/devices/:id/config, /api/devices/:id/backups..., /api/device-jobs/:jobId (issue 7): the running
 * configuration (masked), back up now (202 with the job to poll), versions, one version (masked), its download
 * (as stored), the diff of two versions, and the jobs with their outcome. Admin only (contract/roles.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, pageSchema } from '../../../contract/envelope';
import {
  deviceBackupDetailSchema,
  deviceBackupDiffQuerySchema,
  deviceBackupDiffSchema,
  deviceBackupListQuerySchema,
  deviceBackupParamsSchema,
  deviceBackupSchema,
  deviceConfigSchema,
  deviceIdParamsSchema,
  deviceJobListQuerySchema,
  deviceJobParamsSchema,
  deviceJobSchema,
} from '../../../contract/schemas/device-backup';
import { contentDisposition } from '../../lib/stored-files';
import { unauthorized } from '../../lib/errors';
import { auditContext } from '../audit/trail';
import { DEVICE_BACKUP_MESSAGES as M, type Caller } from './service';

const pageOf = <T extends z.ZodType>(item: T) => envelope(pageSchema(item));

const caller = (request: FastifyRequest): Caller => {
  if (!request.user) throw unauthorized();
  return { id: request.user.id };
};

const deviceBackupRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.deviceBackups.service;

  app.get(
    '/devices/:id/config',
    { schema: { params: deviceIdParamsSchema, response: { 200: envelope(deviceConfigSchema) } } },
    async (request) =>
      ok(await service().runningConfig(caller(request), request.params.id, auditContext(request)), M.config),
  );

  app.post(
    '/devices/:id/backups',
    { schema: { params: deviceIdParamsSchema, response: { 202: envelope(z.object({ job: deviceJobSchema })) } } },
    async (request, reply) => {
      const { job, created } = await service().startBackup(caller(request), request.params.id, 'manual');
      return reply.code(202).send(ok({ job }, created ? M.backupQueued : M.backupAlreadyRunning));
    },
  );

  app.get(
    '/devices/:id/backups',
    {
      schema: {
        params: deviceIdParamsSchema,
        querystring: deviceBackupListQuerySchema,
        response: { 200: pageOf(deviceBackupSchema) },
      },
    },
    async (request) =>
      ok(await service().listVersions(request.params.id, request.query.page, request.query.limit), M.versions),
  );

  // Registered before /:backupId so "diff" is never read as an id (Fastify prefers the static path anyway).
  app.get(
    '/devices/:id/backups/diff',
    {
      schema: {
        params: deviceIdParamsSchema,
        querystring: deviceBackupDiffQuerySchema,
        response: { 200: envelope(deviceBackupDiffSchema) },
      },
    },
    async (request) =>
      ok(
        await service().diff(
          request.params.id,
          request.query.from,
          request.query.to,
          request.query.context,
          auditContext(request),
        ),
        M.diff,
      ),
  );

  app.get(
    '/devices/:id/backups/:backupId',
    { schema: { params: deviceBackupParamsSchema, response: { 200: envelope(deviceBackupDetailSchema) } } },
    async (request) =>
      ok(await service().getVersion(request.params.id, request.params.backupId, auditContext(request)), M.version),
  );

  app.get(
    '/devices/:id/backups/:backupId/download',
    { schema: { params: deviceBackupParamsSchema } },
    async (request, reply) => {
      const { fileName, content } = await service().download(
        request.params.id,
        request.params.backupId,
        auditContext(request),
      );
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', contentDisposition(fileName))
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(content);
    },
  );

  app.get(
    '/devices/:id/backup-jobs',
    {
      schema: {
        params: deviceIdParamsSchema,
        querystring: deviceJobListQuerySchema,
        response: { 200: pageOf(deviceJobSchema) },
      },
    },
    async (request) => ok(await service().listJobs(request.params.id, request.query), M.jobs),
  );

  app.get(
    '/device-jobs/:jobId',
    { schema: { params: deviceJobParamsSchema, response: { 200: envelope(deviceJobSchema) } } },
    async (request) => ok(await service().getJob(request.params.jobId), M.job),
  );
};

export default deviceBackupRoutes;
