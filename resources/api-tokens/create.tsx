import { useState } from 'react';
import { Alert, Button, DatePicker, Form, Input, Modal, Space, Typography } from 'antd';
import { FormSelect } from '../../src/components/FormSelect';
import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Create } from '@refinedev/antd';
import { useGo } from '@refinedev/core';
import dayjs, { type Dayjs } from 'dayjs';
import type { CreatedApiToken } from '../../contract/schemas/api-token';
import { useAuthState } from '../../providers/auth-store';
import { zodRules } from '../../src/components/resource';
import { useToastedCall } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';
import { API_TOKEN_ROLE_OPTIONS, apiTokensResource } from './resource';
import { HeaderTitle } from '../../src/components/Text';

interface FormValues {
  name: string;
  role: string;
  expires?: Dayjs | null;
}

const field = (name: string) => apiTokensResource.fields.find((f) => f.name === name)!;

/** The new token's secret, shown this once: copy it, then back to the list (the secret is then forgotten). */
export function SecretModal({ token, onClose }: { token: CreatedApiToken | null; onClose: () => void }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token!.secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <Modal
      open={token !== null}
      title={t('apiTokens.secret.title')}
      closable={false}
      maskClosable={false}
      keyboard={false}
      onOk={onClose}
      okText={t('apiTokens.secret.done')}
      cancelButtonProps={{ style: { display: 'none' } }}
      destroyOnHidden
    >
      {token && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon message={t('apiTokens.secret.warning')} />
          <Space.Compact style={{ width: '100%' }}>
            <Input
              readOnly
              value={token.secret}
              data-testid="api-token-secret"
              onFocus={(e) => e.currentTarget.select()}
              style={{ fontFamily: 'monospace' }}
            />
            <Button icon={copied === 'yes' ? <CheckOutlined /> : <CopyOutlined />} onClick={copy}>
              {t(copied === 'yes' ? 'apiTokens.secret.copied' : 'apiTokens.secret.copy')}
            </Button>
          </Space.Compact>
          {copied === 'failed' && <Typography.Text type="danger">{t('apiTokens.secret.copyFailed')}</Typography.Text>}
          <Typography.Text type="secondary">{t('apiTokens.secret.usage')}</Typography.Text>
        </Space>
      )}
    </Modal>
  );
}

/** POST /api-tokens {name, role, expiresAt?}; on success the secret is shown once in a modal. */
export function ApiTokenCreate() {
  const [form] = Form.useForm<FormValues>();
  const { run, isPending } = useToastedCall();
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const go = useGo();
  const isSuperAdmin = useAuthState((s) => s.user?.role === 'super_admin');
  const roles = API_TOKEN_ROLE_OPTIONS.filter((o) => o.value !== 'super_admin' || isSuperAdmin);

  const submit = async (values: FormValues) => {
    const token = await run<CreatedApiToken>({
      url: '/api-tokens',
      method: 'post',
      values: {
        name: values.name.trim(),
        role: values.role,
        ...(values.expires ? { expiresAt: values.expires.endOf('day').toISOString() } : {}),
      },
      success: false,
      fallbackKey: 'apiTokens.errors.create',
    });
    if (token) {
      form.resetFields();
      setCreated(token);
    }
  };

  return (
    <Create
      // No back arrow: antd's page header nests its button in another (axe nested-interactive); the breadcrumb leads back.
      goBack={false}
      title={<HeaderTitle>{t('apiTokens.newTitle')}</HeaderTitle>}
      resource={apiTokensResource.name}
      saveButtonProps={{ onClick: () => form.submit(), loading: isPending, children: t('apiTokens.create') }}
    >
      <Typography.Paragraph type="secondary">{t('apiTokens.intro')}</Typography.Paragraph>
      <Form<FormValues> form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 480 }}>
        <Form.Item name="name" label={t('apiTokens.fields.name')} rules={zodRules(field('name').schema, field('name'))}>
          <Input maxLength={100} placeholder={t('apiTokens.namePlaceholder')} />
        </Form.Item>
        <Form.Item
          name="role"
          label={t('apiTokens.fields.role')}
          rules={[{ required: true, message: t('resource.required', { field: t('apiTokens.fields.role') }) }]}
        >
          <FormSelect options={roles.map((o) => ({ value: o.value, label: t(o.labelKey) }))} />
        </Form.Item>
        <Form.Item name="expires" label={t('apiTokens.fields.expiresAt')} extra={t('apiTokens.expiresHelp')}>
          <DatePicker disabledDate={(d) => d.isBefore(dayjs(), 'day')} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
      <SecretModal
        token={created}
        onClose={() => {
          setCreated(null);
          go({ to: { resource: apiTokensResource.name, action: 'list' } });
        }}
      />
    </Create>
  );
}
