/** The fields a ticket's creator fills in (new ticket form) and may change (edit dialog); children join the selects' row. */
import type { ReactNode } from 'react';
import { Form, Input, Space } from 'antd';
import { FormSelect } from '../../src/components/FormSelect';
import { TICKET_CATEGORIES, TICKET_PRIORITIES } from '../../contract/schemas/ticket';
import { t } from '../../src/i18n';

export function TicketFields({ children }: { children?: ReactNode }) {
  return (
    <>
      <Form.Item
        name="subject"
        label={t('tickets.fields.subject')}
        rules={[{ required: true, whitespace: true, min: 3, message: t('tickets.form.subjectRequired') }]}
      >
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item
        name="description"
        label={t('tickets.fields.description')}
        rules={[{ required: true, whitespace: true, message: t('tickets.form.descriptionRequired') }]}
      >
        <Input.TextArea rows={5} maxLength={10_000} />
      </Form.Item>
      <Space wrap size="large">
        <Form.Item name="category" label={t('tickets.fields.category')}>
          <FormSelect
            style={{ minWidth: 180 }}
            options={TICKET_CATEGORIES.map((c) => ({ value: c, label: t(`tickets.category.${c}`) }))}
          />
        </Form.Item>
        <Form.Item name="priority" label={t('tickets.fields.priority')}>
          <FormSelect
            style={{ minWidth: 140 }}
            options={TICKET_PRIORITIES.map((p) => ({ value: p, label: t(`tickets.priority.${p}`) }))}
          />
        </Form.Item>
        {children}
      </Space>
    </>
  );
}
