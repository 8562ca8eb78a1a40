/** /api/payments: initiate, status, provider webhooks, sandbox checkout, manual payments (filled in by the billing work). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const paymentRoutes: FastifyPluginAsyncZod = async () => {};

export default paymentRoutes;
