/**
 * /api/installations (issue 8): the technician's jobs and the staff's schedule. Lists answer data {items,
 * pagination: {page, totalPages, total, hasNext, hasPrev}}; photos are multipart uploads with an authorised
 * download. Also GET /api/subscriptions/:id/credentials (serviceAccessRoutes, registered under /subscriptions).
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, pageSchema } from '../../../contract/envelope';
import {
  INSTALLATION_PHOTO_MAX_BYTES,
  INSTALLATION_PHOTO_MAX_FILES,
  installationAssignSchema,
  installationCreateSchema,
  installationDetailSchema,
  installationListQuerySchema,
  installationPhotoSchema,
  installationSchema,
  installationStatusInputSchema,
  installationUpdateSchema,
  serviceAccessSchema,
} from '../../../contract/schemas/installation';
import { badRequest, unauthorized } from '../../lib/errors';
import { sendStoredFile, sweepIncomingOnReady, type UploadPart } from '../../lib/stored-files';
import { auditContext } from '../audit/trail';
import { INSTALLATIONS_AREA } from './files';
import { createInstallationRepository } from './repository';
import { INSTALLATION_MESSAGES as M, InstallationService, type Caller } from './service';

const idParams = z.object({ id: z.string() });
const detail = { 200: envelope(installationDetailSchema) };

const caller = (request: FastifyRequest): Caller => {
  if (!request.user) throw unauthorized();
  return { id: request.user.id, role: request.user.role, name: request.user.name };
};

function createService(app: FastifyInstance): InstallationService {
  return new InstallationService({
    db: app.db,
    repository: createInstallationRepository(app.db),
    clock: app.clock,
    dataDir: app.config.dataDir,
    store: app.storage,
    appUrl: app.config.appUrl,
    box: app.secretBox,
    company: async () => {
      const { company, languages } = await app.settings.stored();
      return { name: company.name, supportEmail: company.support_email, language: languages.default };
    },
    send: (message) => app.mail.send(message),
    uploadQuotas: async () => (await app.settings.stored()).uploads,
  });
}

const installationRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: INSTALLATION_PHOTO_MAX_BYTES,
      files: INSTALLATION_PHOTO_MAX_FILES,
      fields: 10,
      parts: INSTALLATION_PHOTO_MAX_FILES + 10,
    },
  });
  sweepIncomingOnReady(app, INSTALLATIONS_AREA); // staged uploads a stopped process left behind

  const service = createService(app);

  app.get(
    '/',
    {
      schema: { querystring: installationListQuerySchema, response: { 200: envelope(pageSchema(installationSchema)) } },
    },
    async (request) => ok(await service.list(caller(request), request.query), M.list),
  );

  app.get('/:id', { schema: { params: idParams, response: detail } }, async (request) =>
    ok(await service.get(caller(request), request.params.id), M.detail),
  );

  app.post(
    '/',
    { schema: { body: installationCreateSchema, response: { 201: envelope(installationDetailSchema) } } },
    async (request, reply) => reply.code(201).send(ok(await service.create(caller(request), request.body), M.created)),
  );

  const update = async (
    request: FastifyRequest<{ Params: { id: string }; Body: z.output<typeof installationUpdateSchema> }>,
  ) => ok(await service.update(caller(request), request.params.id, request.body), M.updated);
  app.put('/:id', { schema: { params: idParams, body: installationUpdateSchema, response: detail } }, update);
  app.patch('/:id', { schema: { params: idParams, body: installationUpdateSchema, response: detail } }, update);

  app.patch(
    '/:id/status',
    { schema: { params: idParams, body: installationStatusInputSchema, response: detail } },
    async (request) =>
      ok(
        await service.setStatus(caller(request), request.params.id, request.body, auditContext(request)),
        M.status(request.body.status),
      ),
  );

  app.patch(
    '/:id/assign',
    { schema: { params: idParams, body: installationAssignSchema, response: detail } },
    async (request) => {
      const job = await service.assign(caller(request), request.params.id, request.body, auditContext(request));
      return ok(job, job.technician_id ? M.assigned : M.unassigned);
    },
  );

  app.get(
    '/:id/photos',
    { schema: { params: idParams, response: { 200: envelope(z.array(installationPhotoSchema)) } } },
    async (request) => ok(await service.photos(caller(request), request.params.id), M.photos),
  );

  app.post(
    '/:id/photos',
    { schema: { params: idParams, response: { 201: envelope(z.array(installationPhotoSchema)) } } },
    async (request, reply) => {
      const who = caller(request);
      if (!request.isMultipart()) {
        await service.photos(who, request.params.id); // 404 for a job the caller may not see
        throw badRequest(M.noFile, [{ field: 'files', message: M.noFile }]);
      }
      const saved = await service.upload(who, request.params.id, request.parts() as AsyncIterable<UploadPart>);
      return reply.code(201).send(ok(saved, M.uploaded));
    },
  );

  app.get(
    '/:id/photos/:photoId/download',
    { schema: { params: z.object({ id: z.string(), photoId: z.string() }) } },
    async (request, reply) => {
      const file = await service.download(caller(request), request.params.id, request.params.photoId);
      return sendStoredFile(reply, app.storage, file, M.photoNotFound);
    },
  );
};

/** GET /api/subscriptions/:id/credentials: the subscription's PPPoE login and installation progress. */
export const serviceAccessRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createService(app);
  app.get(
    '/:id/credentials',
    { schema: { params: idParams, response: { 200: envelope(serviceAccessSchema) } } },
    async (request) => ok(await service.serviceAccess(caller(request), request.params.id), M.access),
  );
};

export default installationRoutes;
