/** /api/jobs: the shared job queue's jobs for admins (state, tries, reason of a failure), filtered and paginated. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pagePagination, ok } from '../../../contract/envelope';
import { JOB_MESSAGES, jobListQuerySchema } from '../../../contract/schemas/job';

const jobRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/', { schema: { querystring: jobListQuerySchema } }, async (request) => {
    const q = request.query;
    const { items, total } = await app.jobs.list(q);
    return ok({ items, pagination: pagePagination(q.page, q.limit, total) }, JOB_MESSAGES.list);
  });
};

export default jobRoutes;
