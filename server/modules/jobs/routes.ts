/** /api/jobs: the shared job queue's jobs for admins (state, tries, reason of a failure), filtered and paginated. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, ok, pagePagination, pageSchema } from '../../../contract/envelope';
import { JOB_MESSAGES, jobListQuerySchema, jobSchema } from '../../../contract/schemas/job';

const jobPage = envelope(pageSchema(jobSchema));

const jobRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/', { schema: { querystring: jobListQuerySchema, response: { 200: jobPage } } }, async (request) => {
    const q = request.query;
    const { items, total } = await app.jobs.list(q);
    return ok({ items, pagination: pagePagination(q.page, q.limit, total) }, JOB_MESSAGES.list);
  });
};

export default jobRoutes;
