export { TicketArea, SharedTicketsPage } from './TicketArea';
export { TicketDetail } from './TicketDetail';
