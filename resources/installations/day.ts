/**
 * The technician's day: which of their jobs are today's (in time order), which come later, and which are
 * finished. Days are the technician's local days (the phone's clock), as they read their schedule.
 */
import dayjs, { type Dayjs } from 'dayjs';
import type { Installation, InstallationStatus } from '../../contract/schemas/installation';

/** Statuses with nothing left for the technician to do (a failed visit is rebooked by staff). */
export const FINISHED_STATUSES: readonly InstallationStatus[] = ['completed', 'failed', 'cancelled'];
const finished = (job: Installation) => FINISHED_STATUSES.includes(job.status);

/** Between two jobs at the same time, the one under way first. */
const WORK_ORDER: InstallationStatus[] = [
  'in_progress',
  'en_route',
  'scheduled',
  'requested',
  'failed',
  'completed',
  'cancelled',
];

export interface DayPlan {
  /** Scheduled today (any status), and unfinished jobs whose day has passed (overdue): earliest first. */
  today: Installation[];
  /** Unfinished jobs on a later day, then those without a slot. */
  upcoming: Installation[];
  /** Finished jobs of other days, most recent first. */
  finished: Installation[];
}

const startOf = (job: Installation) =>
  job.scheduled_start ? dayjs(job.scheduled_start).valueOf() : Number.POSITIVE_INFINITY;
const byTime = (a: Installation, b: Installation) =>
  startOf(a) - startOf(b) ||
  (a.preferred_date ?? '9999').localeCompare(b.preferred_date ?? '9999') ||
  WORK_ORDER.indexOf(a.status) - WORK_ORDER.indexOf(b.status) ||
  a.number.localeCompare(b.number);
const lastTouched = (job: Installation) => dayjs(job.completed_at ?? job.scheduled_start ?? job.updated_at).valueOf();

/** Whether the job's slot is on a day before `now`'s and it is still to be done. */
export function isOverdue(job: Installation, now: Dayjs = dayjs()): boolean {
  return !finished(job) && !!job.scheduled_start && dayjs(job.scheduled_start).isBefore(now.startOf('day'));
}

/** Sorts the jobs into today / upcoming / finished (each job once, duplicates by id dropped). */
export function planDay(jobs: Installation[], now: Dayjs = dayjs()): DayPlan {
  const unique = [...new Map(jobs.map((j) => [j.id, j])).values()];
  const plan: DayPlan = { today: [], upcoming: [], finished: [] };
  for (const job of unique) {
    const onToday = !!job.scheduled_start && dayjs(job.scheduled_start).isSame(now, 'day');
    if (onToday || isOverdue(job, now)) plan.today.push(job);
    else if (finished(job)) plan.finished.push(job);
    else plan.upcoming.push(job);
  }
  plan.today.sort(byTime);
  plan.upcoming.sort(byTime);
  plan.finished.sort((a, b) => lastTouched(b) - lastTouched(a) || b.number.localeCompare(a.number));
  return plan;
}
