/**
 * The job queue's states and names in words, without zod: the texts module (src/i18n/en/jobs.ts) is loaded on
 * every page, the public site included, and must not pull the schema library in with it.
 */
export const JOB_STATUSES = ['queued', 'retrying', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** pg-boss' job states (as /metrics and the system page count them) in the words admins read. */
export const JOB_STATUS_OF_STATE: Record<string, JobStatus> = {
  created: 'queued',
  retry: 'retrying',
  active: 'running',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** The queues, with the words admins read for them. */
export const JOB_NAMES: Record<string, string> = {
  'device-backup': 'Device configuration backup',
  'device-backup-schedule': 'Scheduled device backups (check)',
  'billing-run': 'Daily billing run (check)',
  'database-backup': 'Scheduled database backup (check)',
  'mail-delivery': 'E-mail delivery',
  'mail-outbox-sweep': 'E-mail outbox sweep',
  'device-poll': 'Device polling (SNMP)',
  'traffic-roll-up': 'Traffic roll-up',
  'radius-sweep': 'RADIUS stale-session sweep',
  'audit-retention': 'Audit trail retention',
  'payment-expiry': 'Pending payments expiry',
  'voucher-batch': 'Voucher batch generation',
  'bulk-message': 'Bulk message sending',
  'embedded-vacuum': 'Embedded database vacuum',
};
