import { useState } from 'react';
import { Alert, Button, Form, Progress, Space } from 'antd';
import { FormSelect } from '../../src/components/FormSelect';
import { useNotification, type HttpError } from '@refinedev/core';
import { useNavigate } from 'react-router';
import type { TicketCategory, TicketDetail, TicketPriority } from '../../contract/schemas/ticket';
import { t } from '../../src/i18n';
import { uploadAttachments, useMySubscriptions, useRefreshTickets, useTicketCall } from './api';
import { ticketPath } from './rules';
import { TicketFields } from './TicketFields';
import { AttachmentPicker } from './ui';

interface Values {
  subject: string;
  description: string;
  category: TicketCategory;
  priority: TicketPriority;
  subscription_id?: string | null;
}

/**
 * The customer's "New ticket" form: POST /tickets, then the chosen files go to the new ticket
 * (POST /tickets/{id}/attachments, multipart "files") with a progress bar, then the ticket opens.
 */
export function NewTicketForm({ onCancel }: { onCancel?: () => void }) {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const { open } = useNotification();
  const create = useTicketCall();
  const refresh = useRefreshTickets();
  const { subscriptions } = useMySubscriptions();
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);

  const submit = async (values: Values) => {
    const ticket = await create.run<TicketDetail>({
      url: '/tickets',
      method: 'post',
      values: {
        subject: values.subject.trim(),
        description: values.description.trim(),
        category: values.category,
        priority: values.priority,
        ...(values.subscription_id ? { subscription_id: values.subscription_id } : {}),
      },
      success: t('tickets.toast.created'),
      fallbackKey: 'errors.tickets.create',
    });
    if (!ticket) return;
    if (files.length > 0) {
      setProgress(0);
      try {
        await uploadAttachments(ticket.id, files, setProgress);
        refresh();
      } catch (error) {
        const message = (error as HttpError)?.message || t('errors.tickets.attachment');
        open?.({ type: 'error', message: t('tickets.form.uploadFailed', { message }) });
      } finally {
        setProgress(null);
      }
    }
    navigate(ticketPath(ticket.id));
  };

  const busy = create.isPending || progress !== null;
  return (
    <Form<Values>
      form={form}
      name="new-ticket"
      layout="vertical"
      initialValues={{ category: 'other', priority: 'normal', subscription_id: null }}
      onFinish={submit}
      disabled={busy}
    >
      <TicketFields>
        <Form.Item name="subscription_id" label={t('tickets.fields.subscription')}>
          <FormSelect
            style={{ minWidth: 220 }}
            options={[
              { value: null as unknown as string, label: t('tickets.form.noSubscription') },
              ...subscriptions.map((s) => ({ value: s.id, label: `${s.plan_name ?? s.plan_id} · ${s.status}` })),
            ]}
          />
        </Form.Item>
      </TicketFields>
      <Form.Item label={t('tickets.fields.attachments')}>
        <AttachmentPicker files={files} onChange={setFiles} disabled={busy} />
      </Form.Item>
      {progress !== null && (
        <div role="status" aria-label={t('tickets.form.uploading')}>
          {t('tickets.form.uploading')}
          <Progress percent={progress} aria-label={t('tickets.form.uploading')} />
        </div>
      )}
      {create.error && <Alert type="error" showIcon message={create.error} style={{ marginBottom: 16 }} />}
      <Space>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('tickets.form.submit')}
        </Button>
        {onCancel && (
          <Button onClick={onCancel} disabled={busy}>
            {t('tickets.form.cancel')}
          </Button>
        )}
      </Space>
    </Form>
  );
}
