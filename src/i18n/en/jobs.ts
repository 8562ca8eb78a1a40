import { JOB_NAMES } from '../../../contract/jobs';

/** Background jobs (issue 14, /dashboard/jobs). */
export const jobs: Record<string, string> = {
  'jobs.title': 'Background jobs',
  'jobs.singular': 'Job',
  'jobs.fields.name': 'Job',
  'jobs.fields.status': 'State',
  'jobs.fields.tries': 'Tries',
  'jobs.fields.error': 'Reason of the failure',
  'jobs.fields.createdAt': 'Queued',
  'jobs.fields.startedAt': 'Started',
  'jobs.fields.finishedAt': 'Finished',
  'jobs.tries': '{tries} of {limit}',
  'jobs.status.queued': 'Queued',
  'jobs.status.retrying': 'Waiting to retry',
  'jobs.status.running': 'Running',
  'jobs.status.done': 'Done',
  'jobs.status.failed': 'Failed',
  'jobs.status.cancelled': 'Cancelled',
  ...Object.fromEntries(Object.entries(JOB_NAMES).map(([name, label]) => [`jobs.name.${name}`, label])),
  'errors.jobs.list': 'Failed to fetch jobs',
};
