import type { ReactNode } from 'react';
import { Button, Card, Form, Input, Space, Typography } from 'antd';
import { CopyOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { directionOf } from '../../contract/languages';
import { t } from '../../src/i18n';
import { SectionHeading } from '../../src/components/Text';

type Row = Record<string, string>;

/**
 * An editable list of small records (achievements, FAQ, coverage areas) on antd Form.List. A translation's list
 * (issue 37) is given the default language's as `fallback`: its entries are the placeholders row by row, `hint`
 * says that an empty list shows them, and an empty list offers to start from a copy of them.
 */
export function ListEditor({
  name,
  titleKey,
  columns,
  fallback,
  hint,
  copyLabel,
  lang,
}: {
  name: string | (string | number)[];
  titleKey: string;
  columns: { name: string; labelKey: string; textarea?: boolean; required?: boolean }[];
  fallback?: Row[];
  hint?: ReactNode;
  copyLabel?: string;
  /** The language the entries are written in (a translation's), for their boxes' lang and direction. */
  lang?: string;
}) {
  const text = lang ? { lang, dir: directionOf(lang) } : {};
  return (
    <Card size="small" title={<SectionHeading>{t(titleKey)}</SectionHeading>} style={{ marginBottom: 16 }}>
      {hint && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
          {hint}
        </Typography.Paragraph>
      )}
      <Form.List name={name}>
        {(items, { add, remove }) => (
          <>
            {items.map((item, index) => (
              <Space key={item.key} align="start" wrap style={{ display: 'flex', marginBottom: 8 }}>
                {columns.map((c) => {
                  const placeholder = fallback?.[index]?.[c.name] || t(c.labelKey);
                  return (
                    <Form.Item
                      key={c.name}
                      name={[item.name, c.name]}
                      rules={
                        c.required
                          ? [{ required: true, message: t('resource.required', { field: t(c.labelKey) }) }]
                          : []
                      }
                    >
                      {c.textarea ? (
                        <Input.TextArea
                          rows={2}
                          placeholder={placeholder}
                          aria-label={t(c.labelKey)}
                          style={{ width: 360, maxWidth: '100%' }}
                          {...text}
                        />
                      ) : (
                        <Input placeholder={placeholder} aria-label={t(c.labelKey)} {...text} />
                      )}
                    </Form.Item>
                  );
                })}
                <Button
                  icon={<DeleteOutlined />}
                  onClick={() => remove(item.name)}
                  aria-label={t('settings.content.remove')}
                />
              </Space>
            ))}
            <Space wrap>
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add(Object.fromEntries(columns.map((c) => [c.name, ''])))}
              >
                {t('settings.content.add')}
              </Button>
              {copyLabel && !items.length && fallback?.length ? (
                <Button
                  icon={<CopyOutlined />}
                  onClick={() => {
                    for (const row of fallback) add({ ...row });
                  }}
                >
                  {copyLabel}
                </Button>
              ) : null}
            </Space>
          </>
        )}
      </Form.List>
    </Card>
  );
}
