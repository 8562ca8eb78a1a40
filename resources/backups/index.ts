/** The portal's own kept backups (issue 13, /dashboard/backups). */
export { BackupsPage } from './BackupsPage';
