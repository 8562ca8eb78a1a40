/**
 * Ticket attachment files: the shared stored-files helpers (server/lib/stored-files) bound to the "tickets"
 * area, so attachments are the store's objects tickets/<ticket id>/<random> (on the local disk
 * DATA_DIR/tickets/<ticket id>/<random>) and stage in DATA_DIR/tickets/.incoming.
 */
import * as files from '../../lib/stored-files';
import type { FileStore } from '../../lib/storage';

export const TICKETS_AREA = 'tickets';

export const storedKey = (ticketId: string, storedName: string) => files.storedKey(TICKETS_AREA, ticketId, storedName);
export const removeTicketFiles = (store: FileStore, ticketId: string) =>
  files.removeOwnerFiles(store, TICKETS_AREA, ticketId);
