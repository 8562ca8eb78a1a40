import { isStaff, ticketView } from '../../contract/roles';
import { CustomerTickets } from './CustomerTickets';
import { ManageTickets } from './ManageTickets';
import { SharedTickets } from './SharedTickets';
import { useViewer } from './ui';
import { t } from '../../src/i18n';

/**
 * /dashboard/tickets: one route, views by role (spec §2, contract/roles.ts ticketView). Customers get their
 * own tickets and the new-ticket form; staff in the 'manage' view (admin, super_admin, support) every ticket
 * with stats, assignment and bulk status; staff in the 'shared' view (technician, billing) view two.
 */
export function TicketArea() {
  const viewer = useViewer();
  if (!viewer) return null;
  if (!isStaff(viewer.role)) return <CustomerTickets />;
  // Their ticket area is view two under its own name: "Shared tickets" is the menu's other entry (the same view).
  return ticketView(viewer.role) === 'shared' ? (
    <SharedTickets viewer={viewer} title={t('tickets.title')} />
  ) : (
    <ManageTickets viewer={viewer} />
  );
}

/** /dashboard/tickets/shared: view two for the four staff roles of ROUTE_ACCESS (the guard keeps others out). */
export function SharedTicketsPage() {
  const viewer = useViewer();
  return viewer ? <SharedTickets viewer={viewer} /> : null;
}
