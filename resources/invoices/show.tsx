import { Button, Space } from 'antd';
import { DownloadOutlined, LinkOutlined } from '@ant-design/icons';
import { DeleteButton, ListButton, RefreshButton, Show } from '@refinedev/antd';
import { useShow, type BaseRecord } from '@refinedev/core';
import { Link } from 'react-router';
import { t } from '../../src/i18n';
import { invoicePagePath, invoicePdfUrl } from './api';
import { InvoiceDetails, type InvoiceView } from './InvoiceDetails';
import { InvoicePayments } from './InvoicePayments';
import { invoicesResource as decl, isDeletable, isPayable } from './resource';
import { RecordPaymentButton, useCanManageInvoices } from './RecordPayment';
import { HeaderTitle } from '../../src/components/Text';

/** One invoice for staff: the document, its payments (with refunds for admin and billing), the PDF and the public page. */
export function InvoiceShow() {
  const { query, result } = useShow<BaseRecord>({ resource: decl.name });
  const record = result as (BaseRecord & InvoiceView) | undefined;
  const canManage = useCanManageInvoices();
  return (
    <Show
      // No back arrow: antd's page header nests its button in another (axe nested-interactive); the breadcrumb leads back.
      goBack={false}
      title={
        <HeaderTitle documentTitle={record ? t('invoices.public.invoice', { number: record.number }) : undefined}>
          {t(decl.singularKey)}
        </HeaderTitle>
      }
      resource={decl.name}
      isLoading={query.isLoading}
      canEdit={false}
      canDelete={false}
      headerButtons={() => (
        <>
          <ListButton resource={decl.name} />
          {record && canManage.recordPayment && isPayable(record) && (
            <RecordPaymentButton size="middle" invoice={record} />
          )}
          {record && canManage.delete && isDeletable(record) && (
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
          <InvoicePayments invoiceId={String(record.id)} canRefund={canManage.refund} />
        </>
      )}
    </Show>
  );
}
