/**
 * Ticket attachment files: the shared stored-files helpers (server/lib/stored-files) bound to the "tickets"
 * area, so attachments live in DATA_DIR/tickets/<ticket id>/<random> and stage in DATA_DIR/tickets/.incoming.
 */
import type { Readable } from 'node:stream';
import * as files from '../../lib/stored-files';
import type { StagedFile } from '../../lib/stored-files';

export { STORED_NAME, contentDisposition, discard, randomStoredName, sanitizeFileName, sniffBinaryType, type StagedFile } from '../../lib/stored-files';

const AREA = 'tickets';

export const ticketsRoot = (dataDir: string) => files.areaRoot(dataDir, AREA);
export const incomingDir = (dataDir: string) => files.incomingDir(dataDir, AREA);
export const ticketDir = (dataDir: string, ticketId: string) => files.ownerDir(dataDir, AREA, ticketId);
export const storedPath = (dataDir: string, ticketId: string, storedName: string) => files.storedPath(dataDir, AREA, ticketId, storedName);

export const stageUpload = (dataDir: string, file: Readable & { truncated?: boolean }, originalName: string | undefined, maxBytes: number) =>
  files.stageUpload(dataDir, AREA, file, originalName, maxBytes);
export const commitFiles = (dataDir: string, ticketId: string, staged: readonly StagedFile[]) => files.commitFiles(dataDir, AREA, ticketId, staged);
export const removeStored = (dataDir: string, ticketId: string, storedNames: readonly string[]) => files.removeStored(dataDir, AREA, ticketId, storedNames);
export const removeTicketFolder = (dataDir: string, ticketId: string) => files.removeOwnerFolder(dataDir, AREA, ticketId);
