import { Button, Space, Table, Typography } from 'antd';
import { DownloadOutlined, LinkOutlined } from '@ant-design/icons';
import { DeleteButton, ListButton, RefreshButton, Show } from '@refinedev/antd';
import { useShow, type BaseRecord } from '@refinedev/core';
import { Link } from 'react-router';
import type { Payment } from '../../contract/schemas/payment';
import { t } from '../../src/i18n';
import { invoicePagePath, invoicePdfUrl } from './api';
import { dayText, money } from './format';
import { InvoiceDetails, type InvoiceView } from './InvoiceDetails';
import { invoicesResource as decl, isDeletable, isPayable } from './index';
import { RecordPaymentButton, useCanManageInvoices } from './RecordPayment';

/** One invoice for staff: the document, its payments when the API sends them, the PDF and the public page. */
export function InvoiceShow() {
  const { query, result } = useShow<BaseRecord>({ resource: decl.name });
  const record = result as (BaseRecord & InvoiceView & { payments?: Payment[] }) | undefined;
  const canManage = useCanManageInvoices();
  return (
    <Show
      title={t(decl.singularKey)}
      resource={decl.name}
      isLoading={query.isLoading}
      canEdit={false}
      canDelete={false}
      headerButtons={() => (
        <>
          <ListButton resource={decl.name} />
          {record && canManage && isPayable(record) && <RecordPaymentButton size="middle" invoice={record} />}
          {record && canManage && isDeletable(record) && (
            <DeleteButton
              resource={decl.name}
              recordItemId={record.id}
              accessControl={{ enabled: false }}
              confirmTitle={t('resource.confirmDelete')}
              confirmOkText={t('resource.delete')}
              confirmCancelText={t('resource.cancel')}
              successNotification={() => ({ type: 'success', message: t('invoices.toast.deleted') })}
            />
          )}
          <RefreshButton resource={decl.name} recordItemId={record?.id} />
        </>
      )}
    >
      {record && (
        <>
          <InvoiceDetails
            invoice={record}
            extra={
              <Space wrap>
                <Button icon={<DownloadOutlined />} href={invoicePdfUrl(record.id)} download={`${record.number}.pdf`}>
                  {t('invoices.actions.downloadPdf')}
                </Button>
                <Link to={invoicePagePath(record.id)} target="_blank" rel="noopener">
                  <LinkOutlined /> {t('invoices.actions.publicPage')}
                </Link>
              </Space>
            }
          />
          {Array.isArray(record.payments) && (
            <>
              <Typography.Title level={5} style={{ marginTop: 24 }}>{t('invoices.show.payments')}</Typography.Title>
              <Table<Payment>
                size="small"
                rowKey="id"
                pagination={false}
                dataSource={record.payments}
                columns={[
                  { key: 'date', title: t('invoices.fields.paidDate'), render: (_, p) => dayText(p.payment_date ?? p.created_at) },
                  { key: 'method', dataIndex: 'payment_method', title: t('invoices.record.method') },
                  { key: 'reference', title: t('invoices.record.reference'), render: (_, p) => p.reference ?? p.transaction_id },
                  { key: 'status', dataIndex: 'status', title: t('invoices.fields.status') },
                  { key: 'amount', title: t('invoices.fields.amount'), align: 'right', render: (_, p) => money(p.amount, p.currency) },
                ]}
              />
            </>
          )}
        </>
      )}
    </Show>
  );
}
