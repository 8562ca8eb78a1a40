import { Form, theme } from 'antd';
import { Create, Edit, useForm } from '@refinedev/antd';
import type { BaseRecord } from '@refinedev/core';
import { t } from '../../i18n';
import { HeaderTitle } from '../Text';
import { FieldInput } from './inputs';
import type { FieldDef, ResourceDecl } from './types';
import { useViewport } from './viewport';

/** The form values as the API wants them: blank optional values left out, or sent as null where declared. */
export function toPayload(fields: FieldDef[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (!(f.name in values)) continue;
    const v = values[f.name];
    if (f.toPayload) {
      const sent = f.toPayload(v, values);
      if (sent !== undefined) out[f.name] = sent;
      continue;
    }
    const blank = v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
    if (blank) {
      if (f.emptyAsNull) out[f.name] = null;
      continue;
    }
    out[f.name] = typeof v === 'string' ? v.trim() : v;
  }
  return out;
}

/** The stored record as the edit form's initial values, through each field's fromRecord. */
export function toFormValues(fields: FieldDef[], record: BaseRecord | undefined): Record<string, unknown> | undefined {
  if (!record) return record;
  const out: Record<string, unknown> = { ...record };
  for (const f of fields) {
    if (f.fromRecord) out[f.name] = f.fromRecord(record[f.name], record);
  }
  return out;
}

/**
 * Create or edit a declared resource on Refine's useForm; success toasts from the declaration. One column at every
 * width (vertical layout, full-width inputs); on phones the Save button stays in view.
 */
export function ResourceForm({ decl, action }: { decl: ResourceDecl; action: 'create' | 'edit' }) {
  const fields = (decl.fields ?? []).filter((f) => f.form);
  const { narrow } = useViewport();
  const { token } = theme.useToken();
  const message =
    action === 'create'
      ? (decl.messages?.created ?? 'resource.created')
      : (decl.messages?.updated ?? 'resource.updated');
  const { formProps, saveButtonProps, query, form } = useForm<BaseRecord>({
    resource: decl.name,
    action,
    meta: decl.meta,
    redirect: 'list',
    successNotification: () => ({ type: 'success', message: t(message) }),
  });
  const currency =
    (Form.useWatch('currency', form) as string | undefined) ??
    (query?.data?.data?.currency as string | undefined) ??
    'USD';
  const record = query?.data?.data;
  const stored = toFormValues(fields, formProps.initialValues as BaseRecord | undefined);
  const defaults = Object.fromEntries(
    fields.filter((f) => f.defaultValue !== undefined).map((f) => [f.name, f.defaultValue]),
  );

  const body = (
    <Form
      {...formProps}
      layout="vertical"
      initialValues={action === 'create' ? { ...defaults, ...stored } : stored}
      onFinish={(values) => formProps.onFinish?.(toPayload(fields, values as Record<string, unknown>))}
    >
      {fields.map((f) => (
        <FieldInput
          key={f.name}
          field={f}
          currency={/^[A-Z]{3}$/.test(currency) ? currency : 'USD'}
          record={record}
          action={action}
        />
      ))}
    </Form>
  );
  const title = t(action === 'create' ? 'resource.createTitle' : 'resource.editTitle', {
    name: t(decl.singularKey ?? decl.titleKey),
  });
  // On a phone a long form puts Save screens away: the card's button bar sticks to the bottom of the viewport
  // (on its own background, above a border) for as long as the form is on screen.
  const contentProps = narrow
    ? {
        classNames: { actions: 'resource-form-save-bar' },
        styles: {
          actions: {
            position: 'sticky' as const,
            bottom: 0,
            zIndex: 2,
            background: token.colorBgContainer,
            borderTop: `1px solid ${token.colorBorderSecondary}`,
          },
        },
      }
    : undefined;
  return action === 'create' ? (
    // No back arrow: antd's page header nests its button in another (axe nested-interactive); the breadcrumb leads back.
    <Create
      goBack={false}
      title={<HeaderTitle>{title}</HeaderTitle>}
      resource={decl.name}
      saveButtonProps={saveButtonProps}
      contentProps={contentProps}
    >
      {body}
    </Create>
  ) : (
    <Edit
      goBack={false}
      title={<HeaderTitle>{title}</HeaderTitle>}
      resource={decl.name}
      saveButtonProps={saveButtonProps}
      isLoading={query?.isLoading}
      contentProps={contentProps}
    >
      {body}
    </Edit>
  );
}
