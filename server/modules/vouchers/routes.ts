/**
 * /api/vouchers (issue 22): batches for admin and billing (create → the plain codes once; list; a batch's
 * vouchers by state; revoke a voucher or a batch; the CSV and the printable cards of a new batch's unused codes), and redemption for
 * customers, limited per account and per address: REDEEM_FAILURES wrong codes in REDEEM_WINDOW_MS and every
 * attempt waits (a right one too), as sign-in does.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, pagePagination, pageSchema } from '../../../contract/envelope';
import {
  createdVoucherBatchSchema,
  voucherBatchCreateSchema,
  voucherBatchListQuerySchema,
  voucherBatchSchema,
  voucherCardsQuerySchema,
  voucherListQuerySchema,
  voucherRedeemSchema,
  voucherRedeemedSchema,
  voucherSchema,
} from '../../../contract/schemas/vouchers';
import { AppError, tooManyRequests, unauthorized } from '../../lib/errors';
import { auditContext } from '../audit/trail';
import { renderVoucherCards } from './cards';
import { VOUCHER_MESSAGES as M, VoucherService } from './service';

const idParams = z.object({ id: z.string() });

/** The job that makes a large batch's codes (issue 33). */
export const VOUCHER_BATCH_JOB = 'voucher-batch';
export const REDEEM_FAILURES = 5;
export const REDEEM_WINDOW_MS = 15 * 60_000;
export const REDEEM_TOO_MANY = 'Too many wrong voucher codes. Please try again later.';

const voucherRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = new VoucherService({
    db: app.db,
    clock: app.clock,
    box: app.secretBox,
    onAccessChanged: (subscriptionId) => app.radius?.accessChanged(subscriptionId, 'status'),
    pace: app.dbKind === 'pglite',
    enqueueGeneration: (batchId) => app.jobs.send(VOUCHER_BATCH_JOB, { batchId }, { singletonKey: batchId }),
  });
  // 100 000 codes take tens of seconds in chunks; a run still active after 10 minutes belongs to a node that is
  // gone, and another node goes on from the batch's count.
  app.jobs.define<{ batchId: string }>(
    VOUCHER_BATCH_JOB,
    { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 600 },
    ({ batchId }) => service.generatePending(batchId),
  );

  // 201 with the codes; 202 (no codes yet) for a batch its job makes: GET /batches/:id shows the progress.
  app.post(
    '/batches',
    {
      schema: {
        body: voucherBatchCreateSchema,
        response: { 201: envelope(createdVoucherBatchSchema), 202: envelope(createdVoucherBatchSchema) },
      },
    },
    async (request, reply) => {
      const user = request.user;
      if (!user) throw unauthorized();
      const { queued, ...batch } = await service.createBatch(request.body, user.id, auditContext(request));
      return reply
        .code(queued ? 202 : 201)
        .header('location', `/api/vouchers/batches/${batch.id}`)
        .send(ok(batch, queued ? M.generating : M.created));
    },
  );

  app.get(
    '/batches',
    {
      schema: { querystring: voucherBatchListQuerySchema, response: { 200: envelope(pageSchema(voucherBatchSchema)) } },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { items, total } = await service.listBatches({ page, limit });
      return ok({ items, pagination: pagePagination(page, limit, total) }, M.list);
    },
  );

  app.get(
    '/batches/:id',
    { schema: { params: idParams, response: { 200: envelope(voucherBatchSchema) } } },
    async (request) => ok(await service.getBatch(request.params.id), M.detail),
  );

  app.get(
    '/batches/:id/vouchers',
    {
      schema: {
        params: idParams,
        querystring: voucherListQuerySchema,
        response: { 200: envelope(pageSchema(voucherSchema)) },
      },
    },
    async (request) => {
      const q = request.query;
      const { items, total } = await service.listVouchers(request.params.id, q);
      return ok({ items, pagination: pagePagination(q.page, q.limit, total) }, M.vouchers);
    },
  );

  app.get('/batches/:id/codes.csv', { schema: { params: idParams } }, async (request, reply) => {
    const { filename, csv } = await service.exportCsv(request.params.id, auditContext(request));
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  // The printable cards (cards.ts): the same window, unused codes and audit as the CSV; in the ISP's default
  // language, or the one staff chose (?language=ar: the customers who buy these cards may read another).
  app.get(
    '/batches/:id/cards.pdf',
    { schema: { params: idParams, querystring: voucherCardsQuerySchema } },
    async (request, reply) => {
      const { batch, planName, codes } = await service.exportCodes(request.params.id, 'pdf', auditContext(request));
      const { company, languages } = await app.settings.stored();
      const pdf = renderVoucherCards({
        language: request.query.language ?? languages.default,
        company: company.name,
        planName,
        validityMinutes: batch.validityMinutes,
        dataAllowanceMb: batch.dataAllowanceMb,
        price: batch.price,
        currency: batch.currency,
        codes,
        appUrl: app.config.appUrl,
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${VoucherService.exportFilename(batch, 'pdf')}"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );

  app.post(
    '/batches/:id/revoke',
    { schema: { params: idParams, response: { 200: envelope(voucherBatchSchema) } } },
    async (request) => ok(await service.revokeBatch(request.params.id, auditContext(request)), M.batchRevoked),
  );

  app.post(
    '/:id/revoke',
    { schema: { params: idParams, response: { 200: envelope(voucherSchema) } } },
    async (request) => ok(await service.revokeVoucher(request.params.id, auditContext(request)), M.revoked),
  );

  const window = { max: REDEEM_FAILURES, windowMs: REDEEM_WINDOW_MS };
  const byIp = app.limitFailures({ nameSpace: 'voucher-ip:', ...window });
  const byAccount = app.limitFailures({
    nameSpace: 'voucher-account:',
    ...window,
    key: (request) => request.user?.id ?? '',
  });

  app.post(
    '/redeem',
    { schema: { body: voucherRedeemSchema, response: { 201: envelope(voucherRedeemedSchema) } } },
    async (request, reply) => {
      const user = request.user;
      if (!user) throw unauthorized();
      const wait = Math.max(await byIp.blockedFor(request), await byAccount.blockedFor(request));
      if (wait > 0) throw tooManyRequests(REDEEM_TOO_MANY, wait);
      try {
        const redeemed = await service.redeem(user.id, request.body.code, auditContext(request));
        return reply.code(201).send(ok(redeemed, M.redeemed));
      } catch (error) {
        // A wrong or mistyped code is what a guesser produces: it counts; a used one (a lost race) does not.
        if (error instanceof AppError && (error.statusCode === 400 || error.statusCode === 404)) {
          await byIp.failed(request);
          await byAccount.failed(request);
        }
        throw error;
      }
    },
  );
};

export default voucherRoutes;
