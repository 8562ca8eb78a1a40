import { Form } from 'antd';
import type { BaseRecord } from '@refinedev/core';
import { toPayload } from '../../../src/components/resource';
import { adminFields } from '../fields';
import { TestConnection } from './TestConnection';

/** "Test connection" inside the create/edit form: tests what the form holds now, before it is saved. */
export function FormTestConnection({ record }: { record: BaseRecord | undefined }) {
  const form = Form.useFormInstance();
  const settings = () => {
    const values = toPayload(
      adminFields.filter((f) => f.form),
      form.getFieldsValue(true) as Record<string, unknown>,
    );
    // Only what the connection needs; the rest of the form is irrelevant to a test.
    const keep = /^(host|snmp_|api_)/;
    return Object.fromEntries(Object.entries(values).filter(([k]) => keep.test(k)));
  };
  return <TestConnection deviceId={record?.id === undefined ? undefined : String(record.id)} settings={settings} />;
}
