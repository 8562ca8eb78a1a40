/** Cells of the payments screen: the customer (linked to their page for the roles that open it) and the invoice. */
import { Typography } from 'antd';
import { useCan } from '@refinedev/core';
import { Link } from 'react-router';
import type { PaymentListItem } from '../../contract/schemas/payment';

/** The users screen's route (admin and support open it; billing sees the name and e-mail only). */
const USER_ROUTE = '/dashboard/user';

export function CustomerCell({ payment }: { payment: PaymentListItem }) {
  const { data } = useCan({ resource: 'users', action: 'show', params: { route: USER_ROUTE } });
  const name = data?.can ? (
    <Link to={`${USER_ROUTE}/${encodeURIComponent(payment.user_id)}`}>{payment.user_name}</Link>
  ) : (
    <span>{payment.user_name}</span>
  );
  return (
    <span style={{ display: 'inline-flex', flexDirection: 'column' }}>
      {name}
      <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-all' }}>
        {payment.user_email}
      </Typography.Text>
    </span>
  );
}

export function InvoiceCell({ payment }: { payment: PaymentListItem }) {
  return (
    <Link to={`/dashboard/billing/invoices/show/${encodeURIComponent(payment.invoice_id)}`}>
      {payment.invoice_number}
    </Link>
  );
}

/** The provider's reference for online payments; staff's own (receipt, transfer reference) for manual ones. */
export function ReferenceCell({ payment }: { payment: PaymentListItem }) {
  const text = payment.reference ?? payment.transaction_id;
  return <Typography.Text style={{ fontSize: 12, wordBreak: 'break-all' }}>{text}</Typography.Text>;
}
