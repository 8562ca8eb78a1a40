/** The admin system page (issue 18, /dashboard/system). */
export { SystemPage } from './SystemPage';
