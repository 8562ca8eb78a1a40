import type { ReactNode } from 'react';
import { theme } from 'antd';

/*
 * A heading, strong and secondary text in antd's type scale and colours (light and dark), without antd's
 * Typography: that component brings its editing, copying and ellipsis machinery (a tooltip and a text area,
 * about 12 KB of compressed script) to every screen that shows a line of it. The first screens after sign-in
 * (layouts, dashboard) use these; screens with editable or copyable text keep Typography.
 */

export function PageTitle({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <h3 style={{ margin: 0, color: token.colorTextHeading, fontSize: token.fontSizeHeading3, lineHeight: token.lineHeightHeading3, fontWeight: token.fontWeightStrong }}>
      {children}
    </h3>
  );
}

export function StrongText({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return <strong style={{ color: token.colorText, fontWeight: token.fontWeightStrong }}>{children}</strong>;
}

export function SecondaryText({ children, small, testId }: { children: ReactNode; small?: boolean; testId?: string }) {
  const { token } = theme.useToken();
  return (
    <span style={{ color: token.colorTextSecondary, ...(small ? { fontSize: token.fontSizeSM } : {}) }} data-testid={testId}>
      {children}
    </span>
  );
}
