/**
 * /api/payments/invoices (staff list, public read by the unguessable id, delete) and /api/payments/user/invoices
 * (the caller's own). Paginated lists answer data {items, pagination: {page, totalPages, total, hasNext, hasPrev}}.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, pageSchema } from '../../../contract/envelope';
import {
  invoiceListItemSchema,
  invoiceListQuerySchema,
  publicInvoiceSchema,
  userInvoiceQuerySchema,
} from '../../../contract/schemas/invoice';
import { allows, ENDPOINT_ACCESS } from '../../../contract/roles';
import { languageOf } from '../../i18n';
import { notFound, unauthorized } from '../../lib/errors';
import { invoicePdfFilename, renderInvoicePdf } from './pdf';
import { createInvoiceRepository } from './repository';
import { auditContext } from '../audit/trail';
import { INVOICE_MESSAGES as M, InvoiceService, toInvoice } from './service';

const idParams = z.object({ id: z.string() });
const pageOf = envelope(pageSchema(invoiceListItemSchema));

const invoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  const repository = createInvoiceRepository(app.db);
  const service = new InvoiceService({ db: app.db, repository, clock: app.clock });

  app.get(
    '/invoices',
    { schema: { querystring: invoiceListQuerySchema, response: { 200: pageOf } } },
    async (request) => ok(await service.list(request.query), M.list),
  );

  app.get(
    '/user/invoices',
    { schema: { querystring: userInvoiceQuerySchema, response: { 200: pageOf } } },
    async (request) => {
      if (!request.user) throw unauthorized();
      return ok(await service.listFor(request.user.id, request.query), M.userList);
    },
  );

  app.get(
    '/invoices/:id',
    { schema: { params: idParams, response: { 200: envelope(publicInvoiceSchema) } } },
    async (request) => ok(await service.publicView(request.params.id), M.detail),
  );

  /**
   * The invoice as a PDF. Reached like the public invoice page (and GET /invoices/:id): anyone holding the
   * unguessable uuid, signed in or not — the page's "Download PDF" is a plain link that sends no token. It
   * mirrors what that page shows (invoice, customer name, plan name); the customer's e-mail is added only for
   * the owner and the staff who list invoices, recognised by an optional bearer token. It is written in the
   * owner's language (their users.language, else the ISP's default), whoever downloads it (issue 37).
   */
  app.get(
    '/invoices/:id/pdf',
    { schema: { params: z.object({ id: z.string().uuid({ message: 'Invoice id must be a valid id' }) }) } },
    async (request, reply) => {
      const found = await repository.findById(request.params.id);
      if (!found) throw notFound(M.notFound);
      const user = request.user;
      const mayReadEmail =
        !!user && (user.id === found.row.userId || allows(ENDPOINT_ACCESS['GET /payments/invoices'], user.role));
      const { company, languages, time_zone } = await app.settings.stored();
      const pdf = await renderInvoicePdf({
        language: languageOf(found.userLanguage, languages.default),
        timeZone: time_zone,
        invoice: toInvoice(found.row),
        company,
        customer: { name: found.userName, email: mayReadEmail ? found.userEmail : null },
        planName: found.planName,
        publicUrl: `${app.config.appUrl.replace(/\/+$/, '')}/invoice/${found.row.id}`,
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${invoicePdfFilename(found.row.number)}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.delete(
    '/invoices/:id',
    { schema: { params: idParams, response: { 200: envelope(z.null()) } } },
    async (request) => {
      await service.remove(request.params.id, auditContext(request));
      return ok(null, M.deleted);
    },
  );
};

export default invoiceRoutes;
