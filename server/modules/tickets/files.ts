/**
 * Ticket attachment files: the shared stored-files helpers (server/lib/stored-files) bound to the "tickets"
 * area, so attachments live in DATA_DIR/tickets/<ticket id>/<random> and stage in DATA_DIR/tickets/.incoming.
 */
import * as files from '../../lib/stored-files';

export const TICKETS_AREA = 'tickets';

export const storedPath = (dataDir: string, ticketId: string, storedName: string) => files.storedPath(dataDir, TICKETS_AREA, ticketId, storedName);
export const removeTicketFolder = (dataDir: string, ticketId: string) => files.removeOwnerFolder(dataDir, TICKETS_AREA, ticketId);
