import type { ReactNode } from 'react';
import { Card, theme } from 'antd';
import { Link } from 'react-router';
import { t } from '../i18n';
import { PageTitle } from './Text';

/** The frame of every sign-in, sign-up and recovery screen. */
export function AuthCard({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  // The page behind the card in the theme's colour (dark mode too), not the browser's white.
  const { token } = theme.useToken();
  return (
    <main
      id="main"
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: 16,
        background: token.colorBgLayout,
      }}
      className="page-fade"
    >
      <Card style={{ width: '100%', maxWidth: 440 }} data-testid={testId}>
        <Link to="/" style={{ display: 'block', textAlign: 'center', fontWeight: 700, fontSize: 20, marginBottom: 8 }}>
          {t('app.name')}
        </Link>
        <PageTitle style={{ textAlign: 'center', marginBottom: 16 }}>{title}</PageTitle>
        {children}
      </Card>
    </main>
  );
}
