/**
 * Installation photo files: the store's objects installations/<installation id>/<random> (on the local disk
 * DATA_DIR/installations/<installation id>/<random>), staged in DATA_DIR/installations/.incoming.
 */
import * as files from '../../lib/stored-files';
import type { FileStore } from '../../lib/storage';

export const INSTALLATIONS_AREA = 'installations';

export const storedKey = (installationId: string, storedName: string) =>
  files.storedKey(INSTALLATIONS_AREA, installationId, storedName);

/** Removes the photos of installations whose rows are gone (deleted with their subscription). */
export async function removeInstallationFiles(store: FileStore, installationIds: readonly string[]): Promise<void> {
  for (const id of installationIds) await files.removeOwnerFiles(store, INSTALLATIONS_AREA, id);
}
