/** How the trail shows who acted and on what: shared by the audit screens and a record's history. */
import { Space, Tag, Typography } from 'antd';
import type { AuditEvent } from '../../contract/schemas/audit';
import { t } from '../../src/i18n';
import { ROLE_COLORS } from '../users/resource';

/** The target types the server records (contract: dotted actions name them first, e.g. plan.updated). */
export const AUDIT_TARGET_TYPES = [
  'plan', 'user', 'subscription', 'invoice', 'payment', 'gateway', 'settings', 'device', 'installation', 'api_token', 'backup',
] as const;

/** A target type's label; a type this screen does not know yet is shown as recorded. */
export function targetTypeLabel(type: string | null | undefined): string {
  if (!type) return '—';
  return t(`audit.targetType.${type}`, undefined, type);
}

/** The actor's role as a tag: "System" for jobs, "Anonymous" for a caller not signed in. */
export function ActorRoleTag({ role }: { role: string }) {
  if (role === 'system') return <Tag>{t('audit.actor.system')}</Tag>;
  if (role === 'anonymous') return <Tag>{t('audit.actor.anonymous')}</Tag>;
  return <Tag color={ROLE_COLORS[role] ?? 'default'}>{t(`role.${role}`, undefined, role)}</Tag>;
}

/** E-mail and role tag (a job has no e-mail; an anonymous caller may have the one they tried to sign in with). */
export function ActorCell({ event }: { event: Pick<AuditEvent, 'actor_email' | 'actor_role'> }) {
  return (
    <Space size={4} wrap data-testid="audit-actor">
      {event.actor_email && <Typography.Text style={{ wordBreak: 'break-all' }}>{event.actor_email}</Typography.Text>}
      <ActorRoleTag role={event.actor_role} />
    </Space>
  );
}

export function ActionText({ action }: { action: string }) {
  return <code data-testid="audit-action">{action}</code>;
}

export function TargetCell({ event }: { event: Pick<AuditEvent, 'target_type' | 'target_id'> }) {
  if (!event.target_type && !event.target_id) return <>—</>;
  return (
    <Space direction="vertical" size={0}>
      <span>{targetTypeLabel(event.target_type)}</span>
      {event.target_id && (
        <code style={{ fontSize: 12, wordBreak: 'break-all' }}>{event.target_id}</code>
      )}
    </Space>
  );
}
