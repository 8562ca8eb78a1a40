/** /api/settings: public subset, policies, the admin's full settings, logo upload and the SMTP test e-mail. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import { envelope, ok } from '../../../contract/envelope';
import {
  adminSettingsSchema,
  policySchema,
  publicSettingsSchema,
  settingsUpdateSchema,
  testEmailSchema,
} from '../../../contract/schemas/settings';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { auditContext } from '../audit/trail';
import { LOGO_MAX_BYTES, SETTINGS_MESSAGES as M, sniffImageType } from './service';

const isTooLarge = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE';

const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Multipart only in this scope; the file is read into memory, at most 1 MB (+1 byte to detect larger).
  await app.register(fastifyMultipart, { limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  // ?lang=es (issue 37): the ISP's content in that language (es-MX → es), field by field, else the default's. Only
  // the query string chooses (never Accept-Language), so an answer varies by its URL alone.
  const langQuery = z.object({ lang: z.string().trim().max(35).optional() });

  app.get(
    '/public',
    { schema: { querystring: langQuery, response: { 200: envelope(publicSettingsSchema) } } },
    async (request) => ok(await app.settings.publicSettings(request.query.lang), M.public),
  );

  app.get(
    '/policies/:type',
    {
      schema: {
        params: z.object({ type: z.string() }),
        querystring: langQuery,
        response: { 200: envelope(policySchema) },
      },
    },
    async (request) => {
      const policy = await app.settings.policy(request.params.type, request.query.lang);
      if (!policy) throw notFound(M.policyNotFound);
      return ok(policy, M.policy);
    },
  );

  app.get('/', { schema: { response: { 200: envelope(adminSettingsSchema) } } }, async () =>
    ok(await app.settings.adminSettings(), M.admin),
  );

  app.put(
    '/',
    { schema: { body: settingsUpdateSchema, response: { 200: envelope(adminSettingsSchema) } } },
    async (request) => ok(await app.settings.update(request.body, auditContext(request)), M.updated),
  );

  app.post(
    '/logo',
    { schema: { response: { 200: envelope(z.object({ logo_url: z.string().nullable() })) } } },
    async (request) => {
      if (!request.isMultipart()) throw badRequest(M.noFile, [{ field: 'file', message: M.noFile }]);
      let bytes: Buffer | null = null;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname === 'file' && !bytes) bytes = await part.toBuffer();
            else await part.toBuffer();
          }
        }
      } catch (error) {
        if (isTooLarge(error)) throw new AppError(413, M.tooLarge);
        throw error;
      }
      if (!bytes) throw badRequest(M.noFile, [{ field: 'file', message: M.noFile }]);
      if (bytes.length > LOGO_MAX_BYTES) throw new AppError(413, M.tooLarge);
      const type = sniffImageType(bytes);
      if (!type) throw new AppError(415, M.unsupported);
      await app.settings.setLogo(bytes, type, auditContext(request));
      return ok({ logo_url: (await app.settings.publicSettings()).company.logo_url }, M.logoUploaded);
    },
  );

  app.get('/logo', async (_request, reply) => {
    const logo = await app.settings.logo();
    if (!logo) throw notFound(M.logoNotFound);
    return reply
      .type(logo.contentType)
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(logo.bytes);
  });

  app.post(
    '/test-email',
    { schema: { body: testEmailSchema, response: { 200: envelope(z.null()) } } },
    async (request) => {
      const company = (await app.settings.stored()).company.name;
      try {
        await app.mail.sendNow({
          to: request.body.to,
          subject: `${company}: test e-mail`,
          text: `This is a test e-mail from ${company}.\n\nIf you can read it, the SMTP settings work.\n`,
        });
      } catch (error) {
        throw new AppError(
          502,
          error instanceof Error && error.message ? error.message : 'The SMTP server refused the message',
        );
      }
      return ok(null, M.testSent);
    },
  );
};

export default settingsRoutes;
