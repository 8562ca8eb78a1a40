import type { CSSProperties, ReactNode } from 'react';
import { theme } from 'antd';
import { usePageTitle } from './page-title';

/*
 * A heading, strong and secondary text in antd's type scale and colours (light and dark), without antd's
 * Typography: that component brings its editing, copying and ellipsis machinery (a tooltip and a text area,
 * about 12 KB of compressed script) to every screen that shows a line of it. The first screens after sign-in
 * (layouts, dashboard) use these; screens with editable or copyable text keep Typography.
 */

/**
 * The screen's one h1 (in the size of antd's level-3 heading), which also names the document: `documentTitle`,
 * or the heading's own text when it is a plain string.
 */
export function PageTitle({
  children,
  documentTitle,
  style,
}: {
  children: ReactNode;
  documentTitle?: string;
  style?: CSSProperties;
}) {
  const { token } = theme.useToken();
  usePageTitle(documentTitle ?? (typeof children === 'string' ? children : null));
  return (
    <h1
      style={{
        margin: 0,
        color: token.colorTextHeading,
        fontSize: token.fontSizeHeading3,
        lineHeight: token.lineHeightHeading3,
        fontWeight: token.fontWeightStrong,
        ...style,
      }}
    >
      {children}
    </h1>
  );
}

export function StrongText({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return <strong style={{ color: token.colorText, fontWeight: token.fontWeightStrong }}>{children}</strong>;
}

export function SecondaryText({ children, small, testId }: { children: ReactNode; small?: boolean; testId?: string }) {
  const { token } = theme.useToken();
  return (
    <span
      style={{ color: token.colorTextSecondary, ...(small ? { fontSize: token.fontSizeSM } : {}) }}
      data-testid={testId}
    >
      {children}
    </span>
  );
}

/**
 * The screen's h1 inside a page header that styles its title itself (Refine's List, Show, Create and Edit):
 * the header's look, the document's outline and title.
 */
export function HeaderTitle({ children, documentTitle }: { children: ReactNode; documentTitle?: string }) {
  usePageTitle(documentTitle ?? (typeof children === 'string' ? children : null));
  return <h1 style={{ margin: 0, font: 'inherit', color: 'inherit' }}>{children}</h1>;
}

/**
 * A section's heading inside a screen that has its h1 (a card's title, a panel's part): the level it has in the
 * page's outline (h2 by default), in the look of the place it sits in (a card title's font, or a small bold line).
 */
export function SectionHeading({
  children,
  level = 2,
  id,
  style,
}: {
  children: ReactNode;
  level?: 2 | 3 | 4;
  id?: string;
  style?: CSSProperties;
}) {
  const { token } = theme.useToken();
  const Tag = `h${level}` as const;
  return (
    <Tag
      id={id}
      style={{
        margin: 0,
        font: 'inherit',
        fontWeight: token.fontWeightStrong,
        color: token.colorTextHeading,
        ...style,
      }}
    >
      {children}
    </Tag>
  );
}
