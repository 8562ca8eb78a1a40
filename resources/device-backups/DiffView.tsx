/** The line diff of two versions, hunk by hunk: removed lines red with "-", added lines green with "+". */
import { Alert, Space, Typography } from 'antd';
import type { DeviceBackupDiff, DiffLine } from '../../contract/schemas/device-backup';
import { t } from '../../src/i18n';

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
const STYLE: Record<DiffLine['type'], { background?: string; sign: string }> = {
  added: { background: '#e6ffec', sign: '+' },
  removed: { background: '#ffebe9', sign: '-' },
  context: { sign: ' ' },
};

export function DiffView({ diff }: { diff: DeviceBackupDiff }) {
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="backup-diff">
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('deviceBackups.diff.title', { from: diff.from.version, to: diff.to.version })}
      </Typography.Title>
      {diff.identical ? (
        <Alert type="info" showIcon message={t('deviceBackups.diff.identical')} />
      ) : (
        <Typography.Text>
          <span style={{ color: '#1a7f37' }}>{t('deviceBackups.diff.summary', { added: diff.added, removed: diff.removed })}</span>
        </Typography.Text>
      )}
      {diff.hunks.map((h, i) => (
        <div key={i} style={{ border: '1px solid #f0f0f0', borderRadius: 6, overflow: 'auto' }}>
          <div style={{ background: '#f6f8fa', padding: '2px 8px', fontFamily: MONO, fontSize: 12, color: '#57606a' }}>
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
                <tr key={j} className={`diff-line diff-${l.type}`} data-type={l.type} style={{ background: STYLE[l.type].background }}>
                  <td style={{ textAlign: 'right', padding: '0 6px', color: '#999', width: 1, userSelect: 'none' }}>{l.old_line ?? ''}</td>
                  <td style={{ textAlign: 'right', padding: '0 6px', color: '#999', width: 1, userSelect: 'none' }}>{l.new_line ?? ''}</td>
                  <td style={{ padding: '0 8px', whiteSpace: 'pre' }}>
                    <span aria-hidden style={{ userSelect: 'none' }}>{STYLE[l.type].sign} </span>
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
}
