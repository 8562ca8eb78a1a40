import '../../i18n/auth-texts';
import { Button, Checkbox, Form, Input, Typography } from 'antd';
import { useLogin } from '@refinedev/core';
import { Link, useLocation } from 'react-router';
import { AuthCard } from '../../components/AuthCard';
import { redirectAfterLogin } from '../../../providers/auth-provider';
import { t } from '../../i18n';
import { emailRules, required } from './rules';

interface LoginValues {
  email: string;
  password: string;
  rememberMe: boolean;
}

export function LoginPage() {
  const { mutate: login, isPending } = useLogin<LoginValues & { redirectTo: string }>();
  const { search } = useLocation();
  return (
    <AuthCard title={t('auth.login.title')} testId="login-page">
      <Form<LoginValues>
        layout="vertical"
        initialValues={{ rememberMe: false }}
        onFinish={(values) => login({ ...values, redirectTo: redirectAfterLogin(undefined, search) })}
        requiredMark={false}
      >
        <Form.Item name="email" label={t('auth.fields.email')} rules={emailRules}>
          <Input type="email" autoComplete="email" autoFocus />
        </Form.Item>
        <Form.Item name="password" label={t('auth.fields.password')} rules={[required('auth.fields.password')]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 16 }}>
          <Form.Item name="rememberMe" valuePropName="checked" noStyle>
            <Checkbox>{t('auth.login.rememberMe')}</Checkbox>
          </Form.Item>
          <Link to="/password-reset">{t('auth.login.forgot')}</Link>
        </div>
        <Button type="primary" htmlType="submit" block loading={isPending}>
          {t('auth.login.submit')}
        </Button>
      </Form>
      <Typography.Paragraph style={{ textAlign: 'center', marginTop: 16, marginBottom: 0 }}>
        {t('auth.login.noAccount')} <Link to="/register">{t('app.register')}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
