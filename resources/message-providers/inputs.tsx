/**
 * The message provider form's settings and secrets: one field per key the chosen provider reads
 * (MESSAGE_PROVIDER_CONFIG_KEYS, MESSAGE_PROVIDER_SECRET_KEYS). Secrets are write-only, as the payment gateways'
 * credentials: never pre-filled, the stored value shown masked, only typed keys sent.
 */
import { Form, Input, Space, Typography } from 'antd';
import type { BaseRecord } from '@refinedev/core';
import { MESSAGE_PROVIDER_CONFIG_KEYS, MESSAGE_PROVIDER_SECRET_KEYS } from '../../contract/schemas/message-provider';
import { MESSAGE_PROVIDERS, type MessageProviderKind } from '../../contract/schemas/messaging';
import type { CustomInputContext } from '../../src/components/resource';
import { translate as t } from '../../src/i18n';
import { displayMask } from '../gateways/credentials';

const isKind = (v: unknown): v is MessageProviderKind =>
  typeof v === 'string' && (MESSAGE_PROVIDERS as readonly string[]).includes(v);

const label = (key: string) => {
  const k = `messageProviders.key.${key}`;
  const text = t(k);
  return text === k ? key.replace(/_/g, ' ') : text;
};

/** List and show cell of a key → value object (secrets arrive masked). */
export function keyValuesCell(value: unknown) {
  const entries = value && typeof value === 'object' ? Object.entries(value as Record<string, unknown>) : [];
  if (!entries.length) return '—';
  return (
    <Space direction="vertical" size={0}>
      {entries.map(([k, v]) => (
        <span key={k}>
          <Typography.Text type="secondary">{label(k)}: </Typography.Text>
          <Typography.Text code>{String(v) || '—'}</Typography.Text>
        </span>
      ))}
    </Space>
  );
}

function Keys({ record, kind }: { record: BaseRecord | undefined; kind: 'config' | 'secrets' }) {
  const provider = (Form.useWatch('provider') as unknown) ?? record?.provider;
  if (!isKind(provider)) return null;
  const keys = (kind === 'config' ? MESSAGE_PROVIDER_CONFIG_KEYS : MESSAGE_PROVIDER_SECRET_KEYS)[provider];
  if (!keys.length) return null;
  const stored = (record?.[kind] ?? {}) as Record<string, unknown>;
  return (
    <Form.Item label={t(`messageProviders.fields.${kind}`)} style={{ marginBottom: 0 }}>
      {keys.map((key) =>
        kind === 'config' ? (
          <Form.Item key={key} name={['config', key]} label={label(key)}>
            <Input aria-label={label(key)} />
          </Form.Item>
        ) : (
          <Form.Item key={key} name={['secrets', key]} label={label(key)}>
            <Input.Password
              autoComplete="new-password"
              aria-label={label(key)}
              placeholder={
                displayMask(stored[key])
                  ? t('gateways.credentials.keep', { masked: displayMask(stored[key]) })
                  : t('gateways.credentials.notSet')
              }
            />
          </Form.Item>
        ),
      )}
    </Form.Item>
  );
}

export const configInput = ({ record }: CustomInputContext) => <Keys record={record} kind="config" />;
export const secretsInput = ({ record }: CustomInputContext) => <Keys record={record} kind="secrets" />;

/** Only the chosen provider's keys, and only the secrets typed (the server keeps the others). */
export function keysPayload(kind: 'config' | 'secrets') {
  return (value: unknown, values: Record<string, unknown>): Record<string, string> | undefined => {
    if (!isKind(values.provider) || !value || typeof value !== 'object') return kind === 'config' ? {} : undefined;
    const keys = (kind === 'config' ? MESSAGE_PROVIDER_CONFIG_KEYS : MESSAGE_PROVIDER_SECRET_KEYS)[values.provider];
    const out: Record<string, string> = {};
    for (const key of keys) {
      const v = (value as Record<string, unknown>)[key];
      if (typeof v === 'string' && (kind === 'config' ? v.trim() !== '' : v !== '')) out[key] = v.trim();
    }
    return kind === 'secrets' && !Object.keys(out).length ? undefined : out;
  };
}
