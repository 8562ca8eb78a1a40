import '../../i18n/auth-texts';
import { useState } from 'react';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useCustomMutation } from '@refinedev/core';
import { Link, useLocation } from 'react-router';
import { AuthCard } from '../../components/AuthCard';
import { t } from '../../i18n';
import { confirmRules, emailRules, newPasswordRules } from './rules';

/** /password-reset: ask for a link. /password-reset/confirm?token=…: set the new password. */
export function PasswordResetPage() {
  const { pathname, search } = useLocation();
  const token = new URLSearchParams(search).get('token');
  return pathname.replace(/\/+$/, '') === '/password-reset' && !token ? (
    <RequestReset />
  ) : (
    <SetNewPassword token={token} />
  );
}

function RequestReset() {
  const { mutate, mutation } = useCustomMutation();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <AuthCard title={t('auth.forgot.title')} testId="password-reset-request">
      <Typography.Paragraph type="secondary">{t('auth.forgot.text')}</Typography.Paragraph>
      {result && (
        <Alert style={{ marginBottom: 16 }} type={result.ok ? 'success' : 'error'} message={result.text} showIcon />
      )}
      <Form<{ email: string }>
        layout="vertical"
        requiredMark={false}
        onFinish={(values) =>
          mutate(
            {
              url: '/auth/forgot-password',
              method: 'post',
              values,
              successNotification: false,
              errorNotification: false,
            },
            {
              onSuccess: (res) =>
                setResult({ ok: true, text: (res as { message?: string }).message || t('auth.forgot.sent') }),
              onError: (e) => setResult({ ok: false, text: e.message || t('auth.forgot.failed') }),
            },
          )
        }
      >
        <Form.Item name="email" label={t('auth.fields.email')} rules={emailRules}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
          {t('auth.forgot.submit')}
        </Button>
      </Form>
      <Typography.Paragraph style={{ textAlign: 'center', marginTop: 16, marginBottom: 0 }}>
        <Link to="/login">{t('auth.backToLogin')}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}

function SetNewPassword({ token }: { token: string | null }) {
  const { mutate, mutation } = useCustomMutation();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <AuthCard title={t('auth.reset.title')} testId="password-reset-confirm">
      {!token && <Alert type="error" showIcon message={t('auth.reset.noToken')} style={{ marginBottom: 16 }} />}
      {result && (
        <Alert style={{ marginBottom: 16 }} type={result.ok ? 'success' : 'error'} message={result.text} showIcon />
      )}
      {token && !result?.ok && (
        <Form<{ password: string; confirmPassword: string }>
          layout="vertical"
          requiredMark={false}
          onFinish={({ password }) =>
            mutate(
              {
                url: '/auth/reset-password',
                method: 'post',
                values: { token, password },
                successNotification: false,
                errorNotification: false,
              },
              {
                onSuccess: () => setResult({ ok: true, text: t('auth.reset.done') }),
                onError: (e) => setResult({ ok: false, text: e.message || t('auth.reset.failed') }),
              },
            )
          }
        >
          <Form.Item name="password" label={t('auth.fields.newPassword')} rules={newPasswordRules} hasFeedback>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            label={t('auth.fields.confirmPassword')}
            dependencies={['password']}
            rules={confirmRules('password')}
            hasFeedback
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
            {t('auth.reset.submit')}
          </Button>
        </Form>
      )}
      <Typography.Paragraph style={{ textAlign: 'center', marginTop: 16, marginBottom: 0 }}>
        <Link to={result?.ok || !token ? (token ? '/login' : '/password-reset') : '/login'}>
          {result?.ok || token ? t('auth.backToLogin') : t('auth.forgot.submit')}
        </Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
