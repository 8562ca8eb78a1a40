import type { ReactNode } from 'react';
import { theme } from 'antd';
import { t } from '../i18n';

/**
 * A chart's figures as a table, folded under the chart in a native <details> (WCAG 1.1.1: a chart drawn on a
 * canvas says nothing to a screen reader or a keyboard). Opened with Enter or Space on its summary; the rows are
 * the chart's own points, formatted as its tooltip formats them.
 */
export function ChartFigures({
  caption,
  columns,
  rows,
  testId,
}: {
  caption: string;
  columns: string[];
  rows: ReactNode[][];
  testId?: string;
}) {
  const { token } = theme.useToken();
  const cell = {
    padding: '4px 8px',
    borderBottom: `1px solid ${token.colorBorderSecondary}`,
    textAlign: 'start' as const,
  };
  // biome-ignore-start lint/suspicious/noArrayIndexKey: a table of figures, its rows and cells fixed in order
  return (
    <details style={{ marginTop: 8 }} data-testid={testId}>
      <summary style={{ cursor: 'pointer', color: token.colorLink }}>{t('chart.figures')}</summary>
      <div style={{ maxHeight: 320, overflow: 'auto', marginTop: 8 }}>
        <table style={{ borderCollapse: 'collapse', width: '100%', fontSize: 13, color: token.colorText }}>
          <caption
            style={{ textAlign: 'start', captionSide: 'top', color: token.colorTextDescription, paddingBottom: 4 }}
          >
            {caption}
          </caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col" style={cell}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                {r.map((v, j) =>
                  j === 0 ? (
                    <th key={j} scope="row" style={{ ...cell, fontWeight: 400 }}>
                      {v}
                    </th>
                  ) : (
                    <td key={j} style={cell}>
                      {v}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
  // biome-ignore-end lint/suspicious/noArrayIndexKey: see above
}
