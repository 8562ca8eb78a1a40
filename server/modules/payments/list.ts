/** The billing team's payments screen (issue 31): every payment, paged and filtered on the server (GET /payments). */
import { pagePagination, type PagePagination } from '../../../contract/envelope';
import type { PaymentListItem, PaymentListQueryParsed } from '../../../contract/schemas/payment';
import type { PaymentRepository, PaymentWithNames } from './repository';
import { toPayment } from './service';

export function toPaymentListItem(found: PaymentWithNames): PaymentListItem {
  return {
    ...toPayment(found.row),
    user_name: found.userName,
    user_email: found.userEmail,
    invoice_number: found.invoiceNumber,
    gateway_name: found.gatewayName,
  };
}

export async function listPayments(
  repository: PaymentRepository,
  query: PaymentListQueryParsed,
): Promise<{ items: PaymentListItem[]; pagination: PagePagination }> {
  const { items, total } = await repository.page(query);
  return { items: items.map(toPaymentListItem), pagination: pagePagination(query.page, query.limit, total) };
}
