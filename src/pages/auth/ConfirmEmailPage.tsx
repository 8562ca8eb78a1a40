import '../../i18n/auth-texts';
import { useEffect, useRef, useState } from 'react';
import { Alert, Spin, Typography } from 'antd';
import { Link, useLocation } from 'react-router';
import { AuthCard } from '../../components/AuthCard';
import { accountApi } from '../../../providers/auth-provider';
import { t } from '../../i18n';

/** /confirm-email?token=…: the link sent to a new e-mail address; the change takes effect here (issue 32). */
export function ConfirmEmailPage() {
  const { search } = useLocation();
  const token = new URLSearchParams(search).get('token');
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(
    token ? null : { ok: false, text: t('auth.confirmEmail.failed') },
  );
  const started = useRef(false);

  useEffect(() => {
    // A single-use token: post it once even under StrictMode's double effects.
    if (!token || started.current) return;
    started.current = true;
    accountApi
      .confirmEmailChange(token)
      .then(() => setOutcome({ ok: true, text: t('auth.confirmEmail.done') }))
      .catch((e: Error) => setOutcome({ ok: false, text: e.message }));
  }, [token]);

  return (
    <AuthCard title={t('auth.confirmEmail.title')} testId="confirm-email-page">
      {!outcome ? (
        <div style={{ textAlign: 'center' }}>
          <Spin />
          <Typography.Paragraph style={{ marginTop: 12 }}>{t('auth.confirmEmail.pending')}</Typography.Paragraph>
        </div>
      ) : (
        <Alert type={outcome.ok ? 'success' : 'error'} showIcon message={outcome.text} style={{ marginBottom: 16 }} />
      )}
      <Typography.Paragraph style={{ textAlign: 'center', marginTop: 16, marginBottom: 0 }}>
        <Link to="/login">{t('auth.backToLogin')}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
