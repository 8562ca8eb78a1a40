import { Button, Card, Form, Input, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { t } from '../../src/i18n';
import { SectionHeading } from '../../src/components/Text';

/** An editable list of small records (achievements, FAQ, coverage areas) on antd Form.List. */
export function ListEditor({
  name,
  titleKey,
  columns,
}: {
  name: string;
  titleKey: string;
  columns: { name: string; labelKey: string; textarea?: boolean; required?: boolean }[];
}) {
  return (
    <Card size="small" title={<SectionHeading>{t(titleKey)}</SectionHeading>} style={{ marginBottom: 16 }}>
      <Form.List name={name}>
        {(items, { add, remove }) => (
          <>
            {items.map((item) => (
              <Space key={item.key} align="start" wrap style={{ display: 'flex', marginBottom: 8 }}>
                {columns.map((c) => (
                  <Form.Item
                    key={c.name}
                    name={[item.name, c.name]}
                    rules={
                      c.required ? [{ required: true, message: t('resource.required', { field: t(c.labelKey) }) }] : []
                    }
                  >
                    {c.textarea ? (
                      <Input.TextArea rows={2} placeholder={t(c.labelKey)} style={{ width: 360 }} />
                    ) : (
                      <Input placeholder={t(c.labelKey)} />
                    )}
                  </Form.Item>
                ))}
                <Button
                  icon={<DeleteOutlined />}
                  onClick={() => remove(item.name)}
                  aria-label={t('settings.content.remove')}
                />
              </Space>
            ))}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => add(Object.fromEntries(columns.map((c) => [c.name, ''])))}
            >
              {t('settings.content.add')}
            </Button>
          </>
        )}
      </Form.List>
    </Card>
  );
}
