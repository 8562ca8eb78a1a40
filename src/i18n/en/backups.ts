/** The portal's own kept backups (issue 13, /dashboard/backups): schedule, last failure, back up now, downloads. */
export const backups: Record<string, string> = {
  'backups.title': 'Backups',
  'backups.subtitle':
    "Copies of the portal's database and uploaded files, kept on its server. Download one to keep a copy somewhere else.",
  'backups.schedule.title': 'Schedule',
  'backups.schedule.every': 'Every {hours} hours, keeping the last {keep}',
  'backups.schedule.hourly': 'Every hour, keeping the last {keep}',
  'backups.schedule.off': 'Scheduled backups are off',
  'backups.lastFailure': 'The last backup failed at {time}: {message}',
  'backups.now': 'Back up now',
  'backups.created': 'Backup created successfully',
  'backups.list.title': 'Kept backups',
  'backups.list.empty': 'No backups yet',
  'backups.fields.name': 'Name',
  'backups.fields.createdAt': 'Created',
  'backups.fields.size': 'Size',
  'backups.fields.download': 'Download',
  'backups.download': 'Download',
  'backups.downloadOne': 'Download {name}',
  'backups.errors.list': 'Failed to fetch backups',
  'backups.errors.create': 'Failed to create backup',
  'backups.errors.download': 'Failed to download backup',
};
