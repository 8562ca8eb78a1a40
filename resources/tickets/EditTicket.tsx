import { useState } from 'react';
import { Alert, Button, Form, Modal, Space } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import type { Ticket } from '../../contract/schemas/ticket';
import { t } from '../../src/i18n';
import { ticketUrl, useTicketCall } from './api';
import { actsAsStaff, type Viewer } from './rules';
import { TicketFields } from './TicketFields';

/** Who may edit (the server's rule): nobody once closed; staff on the ticket; its creator while it is open. */
export function canEdit(
  viewer: Viewer,
  ticket: Pick<Ticket, 'status' | 'created_by' | 'assigned_to' | 'category'>,
): boolean {
  if (ticket.status === 'closed') return false;
  return actsAsStaff(viewer, ticket) || (ticket.created_by === viewer.id && ticket.status === 'open');
}

type Values = Pick<Ticket, 'subject' | 'description' | 'category' | 'priority'>;

/** PUT /tickets/{id} with the fields that changed; its own loading and error state ('Failed to update ticket'). */
export function EditTicket({ ticket }: { ticket: Ticket }) {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<Values>();
  const update = useTicketCall();
  const save = async (values: Values) => {
    const changed: Record<string, unknown> = {};
    for (const key of ['subject', 'description', 'category', 'priority'] as const) {
      const value = typeof values[key] === 'string' ? values[key].trim() : values[key];
      if (value !== ticket[key]) changed[key] = value;
    }
    if (Object.keys(changed).length === 0) return setOpen(false);
    const saved = await update.run({
      url: ticketUrl(ticket.id),
      method: 'put',
      values: changed,
      success: t('tickets.toast.updated'),
      fallbackKey: 'errors.tickets.update',
    });
    if (saved) setOpen(false);
  };
  return (
    <>
      <Button
        icon={<EditOutlined />}
        onClick={() => {
          update.reset();
          setOpen(true);
        }}
      >
        {t('tickets.actions.edit')}
      </Button>
      <Modal
        open={open}
        title={t('tickets.actions.edit')}
        footer={null}
        onCancel={() => setOpen(false)}
        destroyOnHidden
        width={640}
      >
        <Form<Values>
          form={form}
          name="edit-ticket"
          layout="vertical"
          onFinish={save}
          disabled={update.isPending}
          initialValues={{
            subject: ticket.subject,
            description: ticket.description,
            category: ticket.category,
            priority: ticket.priority,
          }}
        >
          <TicketFields />
          {update.error && <Alert type="error" showIcon message={update.error} style={{ marginBottom: 16 }} />}
          <Space>
            <Button type="primary" htmlType="submit" loading={update.isPending}>
              {t('tickets.actions.save')}
            </Button>
            <Button onClick={() => setOpen(false)}>{t('tickets.form.cancel')}</Button>
          </Space>
        </Form>
      </Modal>
    </>
  );
}
