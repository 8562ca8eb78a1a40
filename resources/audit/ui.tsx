/** How the trail shows who acted and on what: shared by the audit screens and a record's history. */
import { Space, Tag, Typography } from 'antd';
import type { AuditEvent } from '../../contract/schemas/audit';
import { t } from '../../src/i18n';
import { auditTargetTypes } from '../registry';
import { ROLE_COLORS } from '../users/resource';

/**
 * The target types the server records (dotted actions name them first, e.g. plan.updated), from the resource
 * declarations (resources/registry.ts auditTargetTypes: each resource's `auditTargets`), not a list of this screen's.
 */
export function auditTargetTypeList(): string[] {
  return auditTargetTypes().map((e) => e.type);
}

/**
 * A target type's label: its own text (audit.targetType.<type>), else the name of one record of the resource that
 * declares it, else the type as recorded.
 */
export function targetTypeLabel(type: string | null | undefined): string {
  if (!type) return '—';
  const key = targetTypeLabelKey(type);
  return key ? t(key) : type;
}

/** The i18n key of a target type's label (see targetTypeLabel), or null for a type nothing names. */
export function targetTypeLabelKey(type: string): string | null {
  const own = `audit.targetType.${type}`;
  if (t(own, undefined, '')) return own;
  const declared = auditTargetTypes().find((e) => e.type === type)?.resource.decl;
  return declared ? (declared.singularKey ?? declared.titleKey) : null;
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

/**
 * What an action (recorded as "plan.updated") says in words: its own label when it has one
 * (audit.action.<action>), else its subject's and verb's ("IP network" + "updated"), else as recorded.
 */
export function actionLabel(action: string): string {
  const own = t(`audit.action.${action}`, undefined, '');
  if (own) return own;
  const dot = action.lastIndexOf('.');
  if (dot < 0) return action;
  const subject = action.slice(0, dot);
  const verb = action.slice(dot + 1);
  const subjectText = t(`audit.targetType.${subject}`, undefined, subject.replace(/[_-]+/g, ' '));
  const verbText = t(`audit.verb.${verb}`, undefined, verb.replace(/[_-]+/g, ' '));
  return `${subjectText} ${verbText}`;
}

/** The action in words, and as recorded underneath (what the Action filter takes). */
export function ActionText({ action }: { action: string }) {
  return (
    <Space direction="vertical" size={0} data-testid="audit-action">
      <span>{actionLabel(action)}</span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        <code>{action}</code>
      </Typography.Text>
    </Space>
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The recorded fields that name a target, in the order they are looked for. */
const NAMING_FIELDS = ['number', 'name', 'email', 'cidr', 'code', 'title', 'subject'];

/** The target's name or number when the event recorded one (its changes, the newer value first), else null. */
export function targetName(event: Pick<AuditEvent, 'changes'>): string | null {
  const changes = event.changes ?? {};
  for (const field of NAMING_FIELDS) {
    const value = changes[field];
    if (typeof value === 'string' && value) return value;
    if (value && typeof value === 'object') {
      const { to, from } = value as { to?: unknown; from?: unknown };
      if (typeof to === 'string' && to) return to;
      if (typeof from === 'string' && from) return from;
    }
  }
  return null;
}

/** A target id as people read it: a UUID by its first eight characters, anything else (a file's name) whole. */
export function shortId(id: string): string {
  return UUID.test(id) ? `${id.slice(0, 8)}…` : id;
}

export function TargetCell({ event }: { event: Pick<AuditEvent, 'target_type' | 'target_id' | 'changes'> }) {
  if (!event.target_type && !event.target_id) return <>—</>;
  const name = targetName(event);
  return (
    <Space direction="vertical" size={0} data-testid="audit-target">
      <span>{targetTypeLabel(event.target_type)}</span>
      {name ? (
        <span style={{ wordBreak: 'break-word' }}>{name}</span>
      ) : (
        event.target_id && (
          <code style={{ fontSize: 12, wordBreak: 'break-all' }} title={event.target_id}>
            {shortId(event.target_id)}
          </code>
        )
      )}
    </Space>
  );
}
