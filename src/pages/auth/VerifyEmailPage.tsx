import '../../i18n/auth-texts';
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Form, Input, Spin, Typography } from 'antd';
import { useCustomMutation } from '@refinedev/core';
import { Link, useLocation, useNavigate } from 'react-router';
import { AuthCard } from '../../components/AuthCard';
import { accountApi } from '../../../providers/auth-provider';
import { t } from '../../i18n';
import { emailRules } from './rules';
import { SectionHeading } from '../../components/Text';

/** /verify-email?token=…: confirms the address, then shows the verification-success screen. */
export function VerifyEmailPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const token = new URLSearchParams(search).get('token');
  const [error, setError] = useState<string | null>(token ? null : t('auth.verify.failed'));
  const started = useRef(false);

  useEffect(() => {
    // GET with a single-use token: run it once even under StrictMode's double effects.
    if (!token || started.current) return;
    started.current = true;
    accountApi
      .verifyEmail(token)
      .then(() => navigate('/verification-success', { replace: true }))
      .catch((e: Error) => setError(e.message));
  }, [token, navigate]);

  return (
    <AuthCard title={t('auth.verify.title')} testId="verify-email-page">
      {!error ? (
        <div style={{ textAlign: 'center' }}>
          <Spin />
          <Typography.Paragraph style={{ marginTop: 12 }}>{t('auth.verify.pending')}</Typography.Paragraph>
        </div>
      ) : (
        <>
          <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />
          <ResendVerification />
        </>
      )}
    </AuthCard>
  );
}

function ResendVerification() {
  const { mutate, mutation } = useCustomMutation();
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <>
      <SectionHeading style={{ marginBottom: 8 }}>{t('auth.verify.resendTitle')}</SectionHeading>
      {note && <Alert type={note.ok ? 'success' : 'error'} message={note.text} showIcon style={{ marginBottom: 12 }} />}
      <Form<{ email: string }>
        layout="vertical"
        requiredMark={false}
        onFinish={(values) =>
          mutate(
            {
              url: '/auth/resend-verification',
              method: 'post',
              values,
              successNotification: false,
              errorNotification: false,
            },
            {
              onSuccess: (res) =>
                setNote({ ok: true, text: (res as { message?: string }).message || t('app.verificationSent') }),
              onError: (e) => setNote({ ok: false, text: e.message || t('auth.verify.resendFailed') }),
            },
          )
        }
      >
        <Form.Item name="email" label={t('auth.fields.email')} rules={emailRules}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Button htmlType="submit" block loading={mutation.isPending}>
          {t('auth.verify.resend')}
        </Button>
      </Form>
      <Typography.Paragraph style={{ textAlign: 'center', marginTop: 16, marginBottom: 0 }}>
        <Link to="/login">{t('auth.backToLogin')}</Link>
      </Typography.Paragraph>
    </>
  );
}
