/**
 * /api/payments/invoices (staff list, public read by the unguessable id, delete) and /api/payments/user/invoices
 * (the caller's own). Paginated lists answer data {items, pagination: {page, totalPages, total, hasNext, hasPrev}}.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../contract/envelope';
import {
  invoiceListItemSchema,
  invoiceListQuerySchema,
  pagePaginationSchema,
  publicInvoiceSchema,
  userInvoiceQuerySchema,
} from '../../../contract/schemas/invoice';
import { unauthorized } from '../../lib/errors';
import { createInvoiceRepository } from './repository';
import { INVOICE_MESSAGES as M, InvoiceService } from './service';

const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), message: z.string(), data });
const idParams = z.object({ id: z.string() });
const pageOf = envelope(z.object({ items: z.array(invoiceListItemSchema), pagination: pagePaginationSchema }));

const invoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = new InvoiceService({ db: app.db, repository: createInvoiceRepository(app.db), clock: app.clock });

  app.get('/invoices', { schema: { querystring: invoiceListQuerySchema, response: { 200: pageOf } } }, async (request) =>
    ok(await service.list(request.query), M.list),
  );

  app.get('/user/invoices', { schema: { querystring: userInvoiceQuerySchema, response: { 200: pageOf } } }, async (request) => {
    if (!request.user) throw unauthorized();
    return ok(await service.listFor(request.user.id, request.query), M.userList);
  });

  app.get('/invoices/:id', { schema: { params: idParams, response: { 200: envelope(publicInvoiceSchema) } } }, async (request) =>
    ok(await service.publicView(request.params.id), M.detail),
  );

  app.delete('/invoices/:id', { schema: { params: idParams, response: { 200: envelope(z.null()) } } }, async (request) => {
    await service.remove(request.params.id);
    return ok(null, M.deleted);
  });
};

export default invoiceRoutes;
