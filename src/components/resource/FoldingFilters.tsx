import { cloneElement, useState, type CSSProperties, type ReactElement } from 'react';
import { Badge, Button, Drawer, Flex, Form } from 'antd';
import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import { FilterOutlined } from '@ant-design/icons';
import { t } from '../../i18n';
import { useViewport } from './viewport';

/** One filter of a list's filter bar. */
export interface FilterItem {
  /** The form value's name. */
  name: string;
  /** The filter's name, shown as its label in the drawer (the bar shows the control's placeholder). */
  label: string;
  /** The control (it carries its own aria-label for the bar, where no label is shown). */
  control: ReactElement<{ style?: CSSProperties }>;
  rules?: Rule[];
}

export interface FoldingFiltersProps<V extends object> {
  form: FormInstance<V>;
  /** The form's name (its fields' ids). */
  name?: string;
  initialValues?: Partial<V>;
  /** Always in view: on phones beside the Filters button (the search box). */
  visible?: FilterItem[];
  /** In the bar from tablet width; behind the Filters button, in a drawer, on phones. */
  folded: FilterItem[];
  /** From tablet width, every change (the bar applies selects at once). On phones the drawer's Apply applies. */
  onValuesChange?: (changed: Partial<V>, all: V) => void;
  /** Applies the filters (form.submit(), Enter in a search box, Apply, Clear). */
  onFinish: (values: V) => void;
}

const isBlank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.every(isBlank));

const fullWidth = (control: FilterItem['control']) =>
  cloneElement(control, { style: { ...control.props.style, width: '100%', minWidth: 0 } });

/**
 * A list's filter bar. From tablet width (md) the filters sit in one inline row above the table, as always. On a
 * phone the row would wrap into several above the first record, so the filters fold into one "Filters" button
 * with the number of active ones, opening a drawer with the same fields (labelled, full width) and Apply and
 * Clear; the search box stays beside the button. One form either way: the drawer's fields stay mounted, so a
 * search sent from the bar keeps the applied filters.
 */
export function FoldingFilters<V extends object>({
  form,
  name,
  initialValues,
  visible = [],
  folded,
  onValuesChange,
  onFinish,
}: FoldingFiltersProps<V>) {
  const { narrow } = useViewport();
  const [open, setOpen] = useState(false);
  const [before, setBefore] = useState<Partial<V>>({});
  const values = Form.useWatch([], { form, preserve: true }) as Record<string, unknown> | undefined;
  const names = folded.map((f) => f.name);
  const active = names.filter((n) => !isBlank(values?.[n])).length;

  if (!narrow || folded.length === 0) {
    return (
      <Form
        form={form}
        name={name}
        layout="inline"
        initialValues={initialValues}
        style={{ marginBottom: 16, rowGap: 8 }}
        data-testid="filter-bar"
        onValuesChange={onValuesChange}
        onFinish={onFinish}
      >
        {[...visible, ...folded].map((f) => (
          <Form.Item key={f.name} name={f.name} rules={f.rules}>
            {f.control}
          </Form.Item>
        ))}
      </Form>
    );
  }

  const openDrawer = () => {
    setBefore(form.getFieldsValue(names as never) as Partial<V>);
    setOpen(true);
  };
  // Closed without Apply: the drawer's fields go back to the applied filters, so a later search does not send them.
  const cancel = () => {
    form.setFieldsValue(before as never);
    setOpen(false);
  };
  const clear = () => {
    form.setFieldsValue(Object.fromEntries(names.map((n) => [n, undefined])) as never);
    form.submit();
  };
  const buttonName = active > 0 ? t('resource.filtersActive', { count: active }) : t('resource.filters');

  return (
    <Form
      form={form}
      name={name}
      layout="vertical"
      initialValues={initialValues}
      style={{ marginBottom: 16 }}
      data-testid="filter-bar"
      onFinish={(v) => {
        setOpen(false);
        onFinish(v);
      }}
    >
      <Flex gap={8} align="flex-start">
        {visible.length > 0 && (
          <div style={{ flex: 1, minWidth: 0 }}>
            {visible.map((f) => (
              <Form.Item key={f.name} name={f.name} rules={f.rules} style={{ marginBottom: 0 }}>
                {fullWidth(f.control)}
              </Form.Item>
            ))}
          </div>
        )}
        <Badge count={active} size="small">
          <Button
            icon={<FilterOutlined />}
            aria-label={buttonName}
            aria-haspopup="dialog"
            aria-expanded={open}
            onClick={openDrawer}
          >
            {t('resource.filters')}
          </Button>
        </Badge>
      </Flex>
      <Drawer
        title={t('resource.filters')}
        placement="bottom"
        height="auto"
        open={open}
        onClose={cancel}
        forceRender
        styles={{ wrapper: { maxHeight: '85vh' } }}
        footer={
          <Flex gap={8}>
            <Button style={{ flex: 1 }} onClick={clear}>
              {t('resource.clear')}
            </Button>
            <Button style={{ flex: 1 }} type="primary" onClick={() => form.submit()}>
              {t('resource.apply')}
            </Button>
          </Flex>
        }
      >
        {folded.map((f) => (
          <Form.Item key={f.name} name={f.name} rules={f.rules} label={f.label}>
            {fullWidth(f.control)}
          </Form.Item>
        ))}
      </Drawer>
    </Form>
  );
}
