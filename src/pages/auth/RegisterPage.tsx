import '../../i18n/auth-texts';
import { Button, Form, Input, Typography } from 'antd';
import { useRegister } from '@refinedev/core';
import { Link, useLocation } from 'react-router';
import { AuthCard } from '../../components/AuthCard';
import { t } from '../../i18n';
import { confirmRules, emailRules, newPasswordRules, required } from './rules';

interface RegisterValues {
  name: string;
  email: string;
  password: string;
  confirmPassword?: string;
  phone: string;
  address: string;
  company?: string;
}

export function RegisterPage() {
  const { mutate: register, isPending } = useRegister<
    Omit<RegisterValues, 'confirmPassword'> & { redirectTo: string }
  >();
  // "Subscribe" on a plan card sends visitors here with ?plan=<id>; after sign-up they continue to subscribing.
  const plan = new URLSearchParams(useLocation().search).get('plan');
  const redirectTo = plan && /^[0-9a-f-]{36}$/i.test(plan) ? `/dashboard/subscriptions?plan=${plan}` : '/dashboard';
  return (
    <AuthCard title={t('auth.register.title')} testId="register-page">
      <Form<RegisterValues>
        layout="vertical"
        requiredMark={false}
        onFinish={({ confirmPassword: _confirm, ...values }) => register({ ...values, redirectTo })}
      >
        <Form.Item name="name" label={t('auth.fields.name')} rules={[required('auth.fields.name'), { min: 2 }]}>
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item name="email" label={t('auth.fields.email')} rules={emailRules}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item name="phone" label={t('auth.fields.phone')} rules={[required('auth.fields.phone')]}>
          <Input autoComplete="tel" />
        </Form.Item>
        <Form.Item name="address" label={t('auth.fields.address')} rules={[required('auth.fields.address')]}>
          <Input autoComplete="street-address" />
        </Form.Item>
        <Form.Item name="company" label={t('auth.fields.company')}>
          <Input autoComplete="organization" />
        </Form.Item>
        <Form.Item name="password" label={t('auth.fields.password')} rules={newPasswordRules} hasFeedback>
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
        <Button type="primary" htmlType="submit" block loading={isPending}>
          {t('auth.register.submit')}
        </Button>
      </Form>
      <Typography.Paragraph style={{ textAlign: 'center', marginTop: 16, marginBottom: 0 }}>
        {t('auth.register.haveAccount')} <Link to="/login">{t('app.login')}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
