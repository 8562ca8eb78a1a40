/** CSV lines of the user list; the columns and escaping are the contract's (shared with the screen's export). */
import { csvLine, userCsvFields } from '../../../contract/schemas/user';
import type { UserRow } from '../../db/schema';
import { toManagedUser } from './presenter';

export { USER_CSV_HEADER, csvLine } from '../../../contract/schemas/user';

export function userCsvLine(row: UserRow): string {
  return csvLine(userCsvFields(toManagedUser(row)));
}
