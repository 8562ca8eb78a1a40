/**
 * The customer's message settings (issue 38), on their profile: prove a phone number (number → a 6-digit code by
 * SMS → verified), then one switch per channel and category. A channel the ISP does not offer, or that needs the
 * verified number, is shown switched off and disabled with why; offers (marketing) are off until turned on.
 * GET/PUT /me/message-preferences, POST /me/phone-verification(/confirm).
 */
import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Space, Switch, Table, Tag, Typography } from 'antd';
import { useCustom, useCustomMutation, useNotification } from '@refinedev/core';
import type { MessagePreferences } from '../../../contract/schemas/message-preferences';
import type { MessageCategory, MessageChannel } from '../../../contract/schemas/messaging';
import { t } from '../../i18n';
import { SectionHeading } from '../../components/Text';

type Row = { category: MessageCategory };

export function MessageSettings() {
  const { open } = useNotification();
  const { query, result } = useCustom<MessagePreferences>({
    url: '/me/message-preferences',
    method: 'get',
    errorNotification: false,
    meta: { fallbackMessage: t('messaging.settings.error') },
  });
  const mutation = useCustomMutation<MessagePreferences>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [changing, setChanging] = useState(false);
  const prefs = query.isSuccess ? (result.data as MessagePreferences) : undefined;

  const call = (url: string, values: object, done: (data: MessagePreferences) => void, success?: string) =>
    mutation.mutate(
      {
        url,
        method: url.endsWith('preferences') ? 'put' : 'post',
        values,
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: (res) => {
          done(res.data as MessagePreferences);
          if (success) open?.({ type: 'success', message: success });
        },
        onError: (e) => open?.({ type: 'error', message: e.message }),
      },
    );

  if (query.isError) return <Alert type="error" showIcon message={t('messaging.settings.error')} />;
  if (!prefs) return <Card loading title={<SectionHeading>{t('messaging.settings.title')}</SectionHeading>} />;

  const enabled = (c: MessageChannel, category: MessageCategory) =>
    prefs.preferences.find((p) => p.channel === c && p.category === category)?.enabled ?? false;
  const toggle = (c: MessageChannel, category: MessageCategory, on: boolean) =>
    call(
      '/me/message-preferences',
      { preferences: [{ channel: c, category, enabled: on }] },
      () => void query.refetch(),
      t('messaging.settings.saved'),
    );

  const columns = [
    {
      title: '',
      dataIndex: 'category',
      key: 'category',
      render: (category: MessageCategory) => (
        <Space direction="vertical" size={0}>
          <span>{t(`messaging.category.${category}`)}</span>
          {category === 'marketing' && (
            <Typography.Text type="secondary">{t('messaging.marketingHelp')}</Typography.Text>
          )}
        </Space>
      ),
    },
    ...prefs.channels.map(({ channel: c, available }) => ({
      title: t(`messaging.channel.${c}`),
      key: c,
      align: 'center' as const,
      render: (_: unknown, row: Row) => {
        const label = `${t(`messaging.channel.${c}`)}: ${t(`messaging.category.${row.category}`)}`;
        return (
          <Switch
            size="small"
            aria-label={label}
            checked={available && enabled(c, row.category)}
            disabled={!available || mutation.mutation.isPending}
            onChange={(on) => toggle(c, row.category, on)}
          />
        );
      },
    })),
  ];
  const unavailable = prefs.channels.filter((c) => !c.available && c.reason);
  const phoneChannelsOffered = prefs.channels.some((c) => c.channel !== 'email' && c.reason !== 'no_provider');

  return (
    <Card title={<SectionHeading>{t('messaging.settings.title')}</SectionHeading>} data-testid="message-settings">
      <Typography.Paragraph type="secondary">{t('messaging.settings.intro')}</Typography.Paragraph>
      {phoneChannelsOffered && (
        <div style={{ marginBottom: 16 }} data-testid="phone-verification">
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {t('messaging.phone.title')}
          </Typography.Title>
          {prefs.phone_verified && !changing ? (
            <Space wrap>
              <Tag color="green">{t('messaging.phone.verified', { phone: prefs.phone ?? '' })}</Tag>
              <Button size="small" onClick={() => setChanging(true)}>
                {t('messaging.phone.change')}
              </Button>
            </Space>
          ) : sentTo ? (
            <Form
              layout="vertical"
              requiredMark={false}
              onFinish={(v: { code: string }) =>
                call(
                  '/me/phone-verification/confirm',
                  { code: v.code },
                  () => {
                    setSentTo(null);
                    setChanging(false);
                    void query.refetch();
                  },
                  t('messaging.phone.done'),
                )
              }
            >
              <Typography.Paragraph>{t('messaging.phone.sent', { phone: sentTo })}</Typography.Paragraph>
              <Form.Item
                name="code"
                label={t('messaging.phone.code')}
                rules={[{ required: true, pattern: /^\d{6}$/, message: t('msg.Enter the 6-digit code') }]}
              >
                <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} style={{ maxWidth: 160 }} />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={mutation.mutation.isPending}>
                {t('messaging.phone.confirm')}
              </Button>
            </Form>
          ) : (
            <Form
              layout="vertical"
              requiredMark={false}
              initialValues={{ phone: prefs.phone ?? '' }}
              onFinish={(v: { phone: string }) =>
                call('/me/phone-verification', { phone: v.phone }, (data) =>
                  setSentTo((data as unknown as { phone: string }).phone),
                )
              }
            >
              {!prefs.phone_verified && <Tag color="orange">{t('messaging.phone.notVerified')}</Tag>}
              <Form.Item
                name="phone"
                label={t('messaging.phone.number')}
                rules={[
                  { required: true, message: t('msg.Enter the number in international form, e.g. +15551234567') },
                ]}
              >
                <Input type="tel" autoComplete="tel" style={{ maxWidth: 260 }} />
              </Form.Item>
              <Button htmlType="submit" loading={mutation.mutation.isPending}>
                {t('messaging.phone.send')}
              </Button>
            </Form>
          )}
        </div>
      )}
      <Table<Row>
        size="small"
        pagination={false}
        rowKey="category"
        scroll={{ x: true }}
        dataSource={prefs.categories.map((category) => ({ category }))}
        columns={columns}
      />
      {unavailable.length > 0 && (
        <ul style={{ marginTop: 8, paddingInlineStart: 20 }} data-testid="channel-reasons">
          {unavailable.map((c) => (
            <li key={c.channel}>
              <Typography.Text type="secondary">
                {t(`messaging.channel.${c.channel}`)}: {t(`messaging.reason.${c.reason}`)}
              </Typography.Text>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
