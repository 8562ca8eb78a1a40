import type { ReactNode } from 'react';
import { Descriptions, Grid, Space, Table, Tag, Typography, theme } from 'antd';
import { usePageTitle } from '../../src/components/page-title';
import type { InvoiceLineItem } from '../../contract/schemas/invoice';
import { t } from '../../src/i18n';
import { INVOICE_STATUS_COLORS } from './resource';
import { dayText, momentDayText, money, percentOf } from './format';

/** What the invoice views need (the public invoice, or a staff list row). */
export interface InvoiceView {
  id: string;
  number: string;
  status: string;
  currency: string;
  line_items: InvoiceLineItem[];
  subtotal: number;
  tax_rate_bp: number;
  tax: number;
  total_amount: number;
  /** Customer credit used when it was issued, and what is left to pay (issue 21). */
  credit_applied?: number;
  amount_due?: number;
  issue_date: string;
  due_date: string;
  paid_date: string | null;
  customer_name?: string;
  user_name?: string;
  user_email?: string;
  plan_name?: string | null;
}

export function InvoiceStatusTag({ status }: { status: string }) {
  const key = `invoices.status.${status}`;
  const label = t(key);
  return (
    <Tag color={INVOICE_STATUS_COLORS[status] ?? 'default'} data-testid="invoice-status">
      {label === key ? status : label}
    </Tag>
  );
}

/** Paid in full by the customer's credit when it was issued (nothing was charged). */
export const paidWithCredit = (invoice: Pick<InvoiceView, 'status' | 'credit_applied' | 'amount_due'>) =>
  invoice.status === 'paid' && (invoice.credit_applied ?? 0) > 0 && invoice.amount_due === 0;

function period(item: InvoiceLineItem): string | null {
  if (!item.period_start || !item.period_end) return null;
  return `${dayText(item.period_start)} – ${dayText(item.period_end)}`;
}

/**
 * An invoice laid out as a document: number and status, dates, bill-to, line items and totals. On the public
 * invoice page its number is the page's h1 and names the document; under a staff page's own h1 it is an h2.
 */
export function InvoiceDetails({
  invoice,
  extra,
  headingLevel = 2,
}: {
  invoice: InvoiceView;
  extra?: ReactNode;
  headingLevel?: 1 | 2;
}) {
  const { token } = theme.useToken();
  const heading = t('invoices.public.invoice', { number: invoice.number });
  usePageTitle(headingLevel === 1 ? heading : null);
  const c = invoice.currency;
  const billTo = invoice.customer_name ?? invoice.user_name ?? '—';
  // On a phone four columns do not fit and the amounts (the total above all) scrolled out of sight: quantity and
  // unit price go under the description, so description and amount share the width.
  // (xs: below 576 px; it matches only once a width is measured, so an unknown width keeps the four columns.)
  const phone = Grid.useBreakpoint().xs === true;
  const labelSpan = phone ? 1 : 3;
  return (
    <div className="invoice-details" data-testid="invoice-details">
      <Space align="center" wrap style={{ justifyContent: 'space-between', width: '100%', marginBottom: 16 }}>
        <Typography.Title
          level={headingLevel}
          style={{ margin: 0, fontSize: token.fontSizeHeading3, lineHeight: token.lineHeightHeading3 }}
        >
          {heading} <InvoiceStatusTag status={invoice.status} />
          {paidWithCredit(invoice) ? (
            <Tag color="green" data-testid="invoice-paid-with-credit">
              {t('credit.invoice.paidWithCredit')}
            </Tag>
          ) : null}
        </Typography.Title>
        {extra}
      </Space>
      <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }} bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('invoices.fields.issueDate')}>{dayText(invoice.issue_date)}</Descriptions.Item>
        <Descriptions.Item label={t('invoices.fields.dueDate')}>{dayText(invoice.due_date)}</Descriptions.Item>
        <Descriptions.Item label={t('invoices.fields.paidDate')}>{momentDayText(invoice.paid_date)}</Descriptions.Item>
        <Descriptions.Item label={t('invoices.fields.billTo')}>
          {billTo}
          {invoice.user_email ? (
            <div>
              <Typography.Text type="secondary">{invoice.user_email}</Typography.Text>
            </div>
          ) : null}
        </Descriptions.Item>
        {invoice.plan_name ? (
          <Descriptions.Item label={t('invoices.fields.plan')}>{invoice.plan_name}</Descriptions.Item>
        ) : null}
      </Descriptions>
      <Table<InvoiceLineItem & { key: number }>
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        aria-label={t('invoices.fields.lineItems')}
        dataSource={invoice.line_items.map((item, i) => ({ ...item, key: i }))}
        columns={[
          {
            key: 'description',
            title: t('invoices.fields.description'),
            render: (_, item) => (
              <>
                {item.description}
                {period(item) ? (
                  <div>
                    <Typography.Text type="secondary">{period(item)}</Typography.Text>
                  </div>
                ) : null}
                {phone ? (
                  <div>
                    <Typography.Text type="secondary">{`${item.quantity} × ${money(item.unit_amount, c)}`}</Typography.Text>
                  </div>
                ) : null}
              </>
            ),
          },
          ...(phone
            ? []
            : [
                {
                  key: 'quantity',
                  dataIndex: 'quantity',
                  title: t('invoices.fields.quantity'),
                  align: 'right' as const,
                },
                {
                  key: 'unit',
                  title: t('invoices.fields.unitAmount'),
                  align: 'right' as const,
                  render: (_: unknown, item: InvoiceLineItem) => money(item.unit_amount, c),
                },
              ]),
          {
            key: 'amount',
            title: t('invoices.fields.amount'),
            align: 'right',
            render: (_, item) => money(item.amount, c),
          },
        ]}
        summary={() => (
          <>
            <Table.Summary.Row>
              <Table.Summary.Cell index={0} colSpan={labelSpan} align="right">
                {t('invoices.fields.subtotal')}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                <span data-testid="invoice-subtotal">{money(invoice.subtotal, c)}</span>
              </Table.Summary.Cell>
            </Table.Summary.Row>
            <Table.Summary.Row>
              <Table.Summary.Cell index={0} colSpan={labelSpan} align="right">
                {t('invoices.fields.taxRate', { rate: percentOf(invoice.tax_rate_bp) })}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                <span data-testid="invoice-tax">{money(invoice.tax, c)}</span>
              </Table.Summary.Cell>
            </Table.Summary.Row>
            <Table.Summary.Row>
              <Table.Summary.Cell index={0} colSpan={labelSpan} align="right">
                <strong>{t('invoices.fields.total')}</strong>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                <strong data-testid="invoice-total">{money(invoice.total_amount, c)}</strong>
              </Table.Summary.Cell>
            </Table.Summary.Row>
            {(invoice.credit_applied ?? 0) > 0 ? (
              <>
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0} colSpan={labelSpan} align="right">
                    {t('credit.invoice.applied')}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">
                    <span data-testid="invoice-credit-applied">{money(-(invoice.credit_applied ?? 0), c)}</span>
                  </Table.Summary.Cell>
                </Table.Summary.Row>
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0} colSpan={labelSpan} align="right">
                    <strong>{t('credit.invoice.amountDue')}</strong>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">
                    <strong data-testid="invoice-amount-due">
                      {money(invoice.amount_due ?? invoice.total_amount, c)}
                    </strong>
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              </>
            ) : null}
          </>
        )}
      />
    </div>
  );
}
