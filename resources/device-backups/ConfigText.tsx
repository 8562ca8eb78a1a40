/**
 * A configuration export with line numbers and a search box: matching lines are highlighted (or shown alone),
 * masked secrets stand out. Used for the running configuration and for a stored version.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { Checkbox, Input, Space, Typography, theme } from 'antd';
import { CONFIG_MASK } from '../../contract/schemas/device-backup';
import { t } from '../../src/i18n';

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/** The masked values of a line as marked elements, the rest as text. */
function withMasks(text: string, style: { background: string; color: string }): ReactNode {
  if (!text.includes(CONFIG_MASK)) return text;
  const parts = text.split(CONFIG_MASK);
  // biome-ignore-start lint/suspicious/noArrayIndexKey: the parts of one line of text, fixed and never reordered
  return parts.flatMap((part, i) =>
    i === 0
      ? [part]
      : [
          <mark key={i} className="config-secret" style={style}>
            {CONFIG_MASK}
          </mark>,
          part,
        ],
  );
  // biome-ignore-end lint/suspicious/noArrayIndexKey: see above
}

export function ConfigText({ content, testId = 'config-text' }: { content: string; testId?: string }) {
  // Theme colours, readable in light and dark mode.
  const { token } = theme.useToken();
  const mask = { background: token.colorFillSecondary, color: token.colorTextSecondary };
  const [search, setSearch] = useState('');
  const [onlyMatches, setOnlyMatches] = useState(false);
  const lines = useMemo(() => {
    const all = content.split('\n');
    if (all.length && all[all.length - 1] === '') all.pop();
    return all;
  }, [content]);
  const needle = search.trim().toLowerCase();
  const matches = useMemo(
    () => (needle ? new Set(lines.flatMap((l, i) => (l.toLowerCase().includes(needle) ? [i] : []))) : null),
    [lines, needle],
  );
  const shown = lines
    .map((text, i) => ({ text, number: i + 1, hit: !!matches?.has(i) }))
    .filter((l) => !onlyMatches || !matches || l.hit);

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Input.Search
          allowClear
          aria-label={t('deviceBackups.search.placeholder')}
          placeholder={t('deviceBackups.search.placeholder')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          style={{ width: 320 }}
        />
        <Checkbox checked={onlyMatches} onChange={(e) => setOnlyMatches(e.target.checked)} disabled={!matches}>
          {t('deviceBackups.search.onlyMatches')}
        </Checkbox>
        {matches ? (
          <Typography.Text type="secondary" data-testid="search-count">
            {matches.size ? t('deviceBackups.search.matches', { count: matches.size }) : t('deviceBackups.search.none')}
          </Typography.Text>
        ) : null}
      </Space>
      <div
        style={{
          overflow: 'auto',
          maxHeight: '70vh',
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: 6,
        }}
      >
        <table
          data-testid={testId}
          style={{ borderCollapse: 'collapse', fontFamily: MONO, fontSize: 12, width: '100%' }}
        >
          <tbody>
            {shown.map((l) => (
              <tr
                key={l.number}
                data-line={l.number}
                className={l.hit ? 'config-line config-line-hit' : 'config-line'}
                style={l.hit ? { background: token.colorWarningBg } : undefined}
              >
                <td
                  style={{
                    textAlign: 'end',
                    padding: '0 8px',
                    color: token.colorTextDescription,
                    userSelect: 'none',
                    width: 1,
                    whiteSpace: 'nowrap',
                    borderRight: `1px solid ${token.colorBorderSecondary}`,
                  }}
                >
                  {l.number}
                </td>
                <td style={{ padding: '0 8px', whiteSpace: 'pre' }}>{withMasks(l.text, mask)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Space>
  );
}
