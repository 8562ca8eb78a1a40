/** /api/payments/invoices and /api/payments/user/invoices: reading and deleting invoices (filled in by the billing work). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const invoiceRoutes: FastifyPluginAsyncZod = async () => {};

export default invoiceRoutes;
