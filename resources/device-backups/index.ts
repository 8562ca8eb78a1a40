/** Network configuration and network backup screens (issue 7). */
export { BackupPage } from './BackupPage';
export { ConfigPage } from './ConfigPage';
