import { useState } from 'react';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { FormSelect } from '../../src/components/FormSelect';
import { useInvalidate, useNotification } from '@refinedev/core';
import { useAllowed } from '../../src/components/resource/useAllowed';
import { MANUAL_PAYMENT_METHODS, type ManualPaymentMethod } from '../../contract/schemas/payment';
import { t } from '../../src/i18n';
import { useInvoiceApi } from './api';
import { money } from './format';

/**
 * Whether the signed-in role may delete invoices record manual payments and refund:
 * the accessControlProvider asks the role matrix about the endpoints those actions call (contract/resource-access.ts).
 */
export function useCanManageInvoices(): { delete: boolean; recordPayment: boolean; refund: boolean } {
  return {
    delete: useAllowed('invoices', 'delete'),
    recordPayment: useAllowed('invoices', 'record-payment'),
    refund: useAllowed('invoices', 'refund'),
  };
}

interface RecordTarget {
  id: string | number;
  number?: string;
  total_amount?: number;
  /** What is left after credit (issue 21); the manual payment records this. */
  amount_due?: number;
  currency?: string;
}

/**
 * "Record payment" (POST /payments/invoices/{id}/manual): cash or bank transfer with a reference, for the
 * invoice's total. On success the invoices are read again, so the row shows paid.
 */
export function RecordPaymentButton({ invoice, size = 'small' }: { invoice: RecordTarget; size?: 'small' | 'middle' }) {
  const api = useInvoiceApi();
  const invalidate = useInvalidate();
  const { open } = useNotification();
  const [form] = Form.useForm<{ payment_method: ManualPaymentMethod; reference: string }>();
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (values: { payment_method: ManualPaymentMethod; reference: string }) => {
    setBusy(true);
    try {
      await api.recordManual(String(invoice.id), {
        amount: Number(invoice.amount_due ?? invoice.total_amount),
        payment_method: values.payment_method,
        reference: values.reference.trim(),
      });
      open?.({ type: 'success', message: t('invoices.toast.recorded') });
      setVisible(false);
      form.resetFields();
      await invalidate({ resource: 'invoices', invalidates: ['list', 'detail'], id: invoice.id });
    } catch (error) {
      open?.({
        type: 'error',
        message: error instanceof Error && error.message ? error.message : t('errors.invoices.recordPayment'),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size={size} onClick={() => setVisible(true)}>
        {t('invoices.actions.recordPayment')}
      </Button>
      <Modal
        open={visible}
        title={t('invoices.record.title', { number: invoice.number ?? '' })}
        okText={t('invoices.record.submit')}
        cancelText={t('resource.cancel')}
        confirmLoading={busy}
        onOk={() => form.submit()}
        onCancel={() => setVisible(false)}
        forceRender
      >
        <Typography.Paragraph>
          {t('invoices.record.amount', { amount: money(invoice.amount_due ?? invoice.total_amount, invoice.currency) })}
        </Typography.Paragraph>
        <Form form={form} layout="vertical" initialValues={{ payment_method: 'cash' }} onFinish={(v) => void submit(v)}>
          <Form.Item name="payment_method" label={t('invoices.record.method')} rules={[{ required: true }]}>
            <FormSelect
              aria-label={t('invoices.record.method')}
              options={MANUAL_PAYMENT_METHODS.map((m) => ({ value: m, label: t(`invoices.record.method.${m}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="reference"
            label={t('invoices.record.reference')}
            extra={t('invoices.record.referenceHelp')}
            rules={[
              { required: true, whitespace: true, message: t('invoices.record.referenceRequired') },
              { max: 200 },
            ]}
          >
            <Input aria-label={t('invoices.record.reference')} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
