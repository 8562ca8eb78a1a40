import { Form, Input } from 'antd';
import type { BaseRecord } from '@refinedev/core';
import { t } from '../../../src/i18n';

/**
 * A write-only secret: never pre-filled; the placeholder and the help show the stored value as '••••' + its
 * last characters ("leave empty to keep it"). Only a typed value is sent.
 */
export function SecretInput({
  name,
  labelKey,
  record,
}: {
  name: string;
  labelKey: string;
  record: BaseRecord | undefined;
}) {
  const last4 = record?.[`${name}_last4`];
  const masked = typeof last4 === 'string' && last4 !== '' ? `••••${last4}` : null;
  return (
    <Form.Item
      name={name}
      label={t(labelKey)}
      preserve={false}
      extra={masked ? t('devices.secret.keep', { masked }) : undefined}
    >
      <Input.Password
        autoComplete="new-password"
        placeholder={masked ?? ''}
        aria-label={t(labelKey)}
        data-testid={`secret-${name}`}
      />
    </Form.Item>
  );
}

/** The value to send for a secret field: only what was typed; blank leaves it out (the server keeps the stored one). */
export function secretPayload(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** How a stored secret shows on the admin's show page. */
export function secretCell(last4: unknown) {
  return typeof last4 === 'string' && last4 !== ''
    ? t('devices.secret.set', { masked: `••••${last4}` })
    : t('devices.secret.notSet');
}
