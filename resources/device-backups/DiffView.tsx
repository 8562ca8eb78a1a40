/** The line diff of two versions, hunk by hunk: removed lines red with "-", added lines green with "+". */
import { Alert, Space, Typography, theme } from 'antd';
import type { DeviceBackupDiff, DiffLine } from '../../contract/schemas/device-backup';
import { t } from '../../src/i18n';
import { SectionHeading } from '../../src/components/Text';

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
const SIGN: Record<DiffLine['type'], string> = { added: '+', removed: '-', context: ' ' };

export function DiffView({ diff }: { diff: DeviceBackupDiff }) {
  // Theme colours (light and dark mode alike): green and red tints behind the lines, readable greys for numbers.
  const { token } = theme.useToken();
  const background: Record<DiffLine['type'], string | undefined> = {
    added: token.colorSuccessBg,
    removed: token.colorErrorBg,
    context: undefined,
  };
  const number = {
    textAlign: 'end',
    padding: '0 6px',
    color: token.colorTextDescription,
    width: 1,
    userSelect: 'none',
  } as const;
  // biome-ignore-start lint/suspicious/noArrayIndexKey: a diff's hunks and lines, rendered once and never reordered
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="backup-diff">
      <SectionHeading>{t('deviceBackups.diff.title', { from: diff.from.version, to: diff.to.version })}</SectionHeading>
      {diff.identical ? (
        <Alert type="info" showIcon message={t('deviceBackups.diff.identical')} />
      ) : (
        <Typography.Text>
          <span style={{ color: token.colorSuccessText }}>
            {t('deviceBackups.diff.summary', { added: diff.added, removed: diff.removed })}
          </span>
        </Typography.Text>
      )}
      {diff.hunks.map((h, i) => (
        <div key={i} style={{ border: `1px solid ${token.colorBorderSecondary}`, borderRadius: 6, overflow: 'auto' }}>
          <div
            style={{
              background: token.colorFillTertiary,
              padding: '2px 8px',
              fontFamily: MONO,
              fontSize: 12,
              color: token.colorTextSecondary,
            }}
          >
            {t('deviceBackups.diff.hunk', {
              oldStart: h.old_start,
              oldEnd: h.old_start + Math.max(0, h.old_lines - 1),
              newStart: h.new_start,
              newEnd: h.new_start + Math.max(0, h.new_lines - 1),
            })}
          </div>
          <table style={{ borderCollapse: 'collapse', fontFamily: MONO, fontSize: 12, width: '100%' }}>
            <tbody>
              {h.lines.map((l, j) => (
                <tr
                  key={j}
                  className={`diff-line diff-${l.type}`}
                  data-type={l.type}
                  style={{ background: background[l.type] }}
                >
                  <td style={number}>{l.old_line ?? ''}</td>
                  <td style={number}>{l.new_line ?? ''}</td>
                  <td style={{ padding: '0 8px', whiteSpace: 'pre' }}>
                    <span aria-hidden style={{ userSelect: 'none' }}>
                      {SIGN[l.type]}{' '}
                    </span>
                    {l.text}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </Space>
  );
  // biome-ignore-end lint/suspicious/noArrayIndexKey: see above
}
