import { Form, Input, Space, Tag, Typography } from 'antd';
import { StarFilled } from '@ant-design/icons';
import type { BaseRecord } from '@refinedev/core';
import {
  MASK_PREFIX,
  PAYMENT_PROVIDERS,
  PROVIDER_CREDENTIAL_KEYS,
  maskSecret,
  type PaymentProvider,
} from '../../contract/schemas/gateway';
import type { CustomInputContext } from '../../src/components/resource';
import { translate } from '../../src/i18n';

const t = translate;

function isProvider(value: unknown): value is PaymentProvider {
  return typeof value === 'string' && (PAYMENT_PROVIDERS as readonly string[]).includes(value);
}

/** The credential keys the provider uses ([] for an unknown or unset provider). */
export function credentialKeys(provider: unknown): readonly string[] {
  return isProvider(provider) ? PROVIDER_CREDENTIAL_KEYS[provider] : [];
}

/** A credential key's label: its translation, or the key itself made readable. */
export function credentialLabel(key: string): string {
  const k = `gateways.credentials.key.${key}`;
  const text = t(k);
  return text === k ? key.replace(/_/g, ' ') : text;
}

/**
 * A stored credential as shown: the API already masks it ('••••abcd'); anything that is not masked is masked
 * here, so a secret never reaches the screen in full.
 */
export function displayMask(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  return value.startsWith(MASK_PREFIX)
    ? `${MASK_PREFIX}${value.slice(MASK_PREFIX.length).slice(-4)}`
    : maskSecret(value);
}

/** List and show cell: each stored key with its masked value. */
export function credentialsCell(value: unknown) {
  const entries = value && typeof value === 'object' ? Object.entries(value as Record<string, unknown>) : [];
  if (entries.length === 0) return '—';
  return (
    <Space direction="vertical" size={0} data-testid="gateway-credentials">
      {entries.map(([key, v]) => (
        <span key={key}>
          <Typography.Text type="secondary">{credentialLabel(key)}: </Typography.Text>
          {displayMask(v) ? (
            <Typography.Text code>{displayMask(v)}</Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t('gateways.credentials.notSet')}</Typography.Text>
          )}
        </span>
      ))}
    </Space>
  );
}

/** The default gateway's marker. */
export function defaultCell(value: unknown) {
  return value === true ? (
    <Tag color="gold" icon={<StarFilled />}>
      {t('gateways.default')}
    </Tag>
  ) : (
    '—'
  );
}

/**
 * The credentials to send: only the keys of the chosen provider the user typed a value into. Untouched keys
 * are left out (the server keeps the stored value); no typed key at all leaves credentials out.
 */
export function credentialsPayload(
  value: unknown,
  values: Record<string, unknown>,
): Record<string, string> | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const typed = value as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const key of credentialKeys(values.provider)) {
    const v = typed[key];
    if (typeof v === 'string' && v.trim() !== '') out[key] = v.trim();
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * One password field per credential key of the selected provider. Never pre-filled: the placeholder shows the
 * stored value masked ("••••abcd — leave empty to keep").
 */
function CredentialsEditor({ record }: { record: BaseRecord | undefined }) {
  const provider = Form.useWatch('provider') as unknown;
  const keys = credentialKeys(provider);
  const stored = (record?.credentials ?? {}) as Record<string, unknown>;
  if (!isProvider(provider)) return null;
  return (
    <Form.Item
      label={t('gateways.fields.credentials')}
      extra={keys.length === 0 ? t('gateways.credentials.none') : undefined}
      style={{ marginBottom: keys.length ? 0 : undefined }}
    >
      {keys.map((key) => {
        const masked = displayMask(stored[key]);
        return (
          <Form.Item key={key} name={['credentials', key]} label={credentialLabel(key)}>
            <Input.Password
              autoComplete="new-password"
              aria-label={credentialLabel(key)}
              placeholder={masked ? t('gateways.credentials.keep', { masked }) : t('gateways.credentials.notSet')}
            />
          </Form.Item>
        );
      })}
    </Form.Item>
  );
}

export function credentialsInput({ record }: CustomInputContext) {
  return <CredentialsEditor record={record} />;
}
