import { useState } from 'react';
import { Alert, Button } from 'antd';
import { useCustomMutation, useNotification } from '@refinedev/core';
import { useAuthState } from '../../providers/auth-store';
import { t } from '../i18n';

/** Reminds an unverified user to verify their e-mail, with a resend button. */
export function VerificationBanner() {
  const { user } = useAuthState();
  const [sent, setSent] = useState(false);
  const { mutate, mutation } = useCustomMutation();
  const { open } = useNotification();
  if (!user || user.isVerified) return null;
  const resend = () =>
    mutate(
      {
        url: '/auth/resend-verification',
        method: 'post',
        values: { email: user.email },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: () => setSent(true),
        onError: (e) => open?.({ type: 'error', message: e.message || t('auth.verify.resendFailed') }),
      },
    );
  return (
    <Alert
      type={sent ? 'success' : 'warning'}
      showIcon
      style={{ marginBottom: 16 }}
      message={sent ? t('app.verificationSent') : t('app.emailNotVerified')}
      action={
        !sent && (
          <Button size="small" loading={mutation.isPending} onClick={resend}>
            {t('app.resendVerification')}
          </Button>
        )
      }
    />
  );
}
