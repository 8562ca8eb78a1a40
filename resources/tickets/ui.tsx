/**
 * Small ticket widgets shared by the screens: tags, the attachment picker (client-side limits), the
 * attachment list (authorised downloads), the status select (only the allowed next statuses) and the
 * assignment select (admin/support).
 */
import { useRef, useState } from 'react';
import { Button, Select, Tag, Typography, Upload, type TableProps, type UploadFile } from 'antd';
import { useNavigate } from 'react-router';
import { ResponsiveTable, type ResponsiveColumn } from '../../src/components/resource';
import { CameraOutlined, PaperClipOutlined } from '@ant-design/icons';
import { useNotification } from '@refinedev/core';
import {
  TICKET_ATTACHMENT_MAX_BYTES,
  TICKET_ATTACHMENT_MAX_FILES,
  TICKET_ATTACHMENT_TYPES,
  type Ticket,
  type TicketAttachment,
  type TicketPriority,
  type TicketStatus,
} from '../../contract/schemas/ticket';
import { useAuthState } from '../../providers/auth-store';
import { isRole } from '../../contract/roles';
import { resizeImage } from '../../src/components/resizeImage';
import { t } from '../../src/i18n';
import { useAllowed } from '../../src/components/resource/useAllowed';
import { downloadAttachment, ticketUrl, useAssignees, useTicketCall } from './api';
import {
  PRIORITY_COLORS,
  STATUS_COLORS,
  attachmentProblem,
  formatBytes,
  formatDateTime,
  nextStatuses,
  ticketPath,
  type Viewer,
} from './rules';

export function useViewer(): Viewer | null {
  const user = useAuthState((s) => s.user);
  return user && isRole(user.role) ? { id: user.id, role: user.role } : null;
}

/** Who may assign and delete tickets: the role matrix's endpoints of those actions (contract/resource-access.ts). */
export const useCanAssign = () => useAllowed('tickets', 'assign');
export const useCanDeleteTicket = () => useAllowed('tickets', 'delete');

export function StatusTag({ status }: { status: TicketStatus }) {
  return <Tag color={STATUS_COLORS[status]}>{t(`tickets.status.${status}`)}</Tag>;
}

export function PriorityTag({ priority }: { priority: TicketPriority }) {
  return <Tag color={PRIORITY_COLORS[priority]}>{t(`tickets.priority.${priority}`)}</Tag>;
}

const ACCEPT = [...TICKET_ATTACHMENT_TYPES, '.log', '.txt'].join(',');

/** A touch screen (a phone or tablet): where "Take photo" opens the camera rather than a file dialog. */
const touchScreen = () => typeof window !== 'undefined' && !!window.matchMedia?.('(pointer: coarse)').matches;

/**
 * Picks up to 5 files of at most 10 MB each (checked here before anything is sent; the server checks again,
 * and checks the type by content). Photos are shrunk first (at most 1600 px, JPEG: resizeImage), so a phone's
 * camera picture goes up quickly and the limits apply to what is sent. On a touch screen a second button takes
 * a photo with the back camera. The chosen files are kept by the caller.
 */
export function AttachmentPicker({
  files,
  onChange,
  disabled,
}: {
  files: File[];
  onChange: (files: File[]) => void;
  disabled?: boolean;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [camera] = useState(touchScreen);
  // Several files chosen at once arrive one by one: the ref holds the list as it grows, and the queue takes
  // them in turn (one decoded photo in memory at a time, the list in the order chosen).
  const current = useRef(files);
  current.current = files;
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const fileList: UploadFile[] = files.map((f, i) => ({
    uid: `${i}-${f.name}`,
    name: f.name,
    size: f.size,
    status: 'done',
  }));
  const add = async (chosen: File) => {
    const file = await resizeImage(chosen);
    const next = [...current.current, file];
    const found = attachmentProblem(next);
    setProblem(found);
    if (found) return;
    current.current = next;
    onChange(next);
  };
  const beforeUpload = (file: File) => {
    queue.current = queue.current.then(() => add(file)).catch(() => undefined);
    return false;
  };
  return (
    <div>
      {camera && (
        <div style={{ marginBottom: 8 }}>
          <Upload
            accept="image/*"
            capture="environment"
            showUploadList={false}
            disabled={disabled}
            beforeUpload={beforeUpload}
          >
            <Button icon={<CameraOutlined />} disabled={disabled} size="large" style={{ minHeight: 44 }}>
              {t('tickets.attachments.camera')}
            </Button>
          </Upload>
        </div>
      )}
      <Upload
        multiple
        accept={ACCEPT}
        fileList={fileList}
        disabled={disabled}
        beforeUpload={beforeUpload}
        onRemove={(item) => {
          const index = fileList.findIndex((f) => f.uid === item.uid);
          const next = files.filter((_, i) => i !== index);
          current.current = next;
          setProblem(null);
          onChange(next);
        }}
      >
        <Button
          icon={<PaperClipOutlined />}
          disabled={disabled}
          size={camera ? 'large' : undefined}
          style={camera ? { minHeight: 44 } : undefined}
        >
          {t('tickets.attachments.add')}
        </Button>
      </Upload>
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
        {t('tickets.attachments.hint', {
          max: TICKET_ATTACHMENT_MAX_FILES,
          size: TICKET_ATTACHMENT_MAX_BYTES / 1024 / 1024,
        })}
      </Typography.Text>
      {problem && (
        <Typography.Text type="danger" role="alert" style={{ display: 'block' }}>
          {problem}
        </Typography.Text>
      )}
    </div>
  );
}

/** The ticket's attachments, each a download through the authorised endpoint. */
export function AttachmentList({ attachments }: { attachments: TicketAttachment[] }) {
  const { open } = useNotification();
  if (attachments.length === 0)
    return <Typography.Text type="secondary">{t('tickets.attachments.none')}</Typography.Text>;
  return (
    <ul style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="attachment-list">
      {attachments.map((a) => (
        <li key={a.id} style={{ marginBottom: 4 }}>
          <a
            href={a.download_url}
            aria-label={t('tickets.attachments.download', { name: a.original_name })}
            // Underlined: beside the grey details its colour alone does not set it apart (axe link-in-text-block).
            style={{ textDecoration: 'underline', textUnderlineOffset: 2 }}
            onClick={(e) => {
              e.preventDefault();
              downloadAttachment(a).catch((error: { message?: string }) =>
                open?.({ type: 'error', message: error?.message || t('tickets.attachments.downloadFailed') }),
              );
            }}
          >
            <PaperClipOutlined /> {a.original_name}
          </a>{' '}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('tickets.attachments.by', {
              size: formatBytes(a.size),
              name: a.uploaded_by_name,
              date: formatDateTime(a.created_at),
            })}
          </Typography.Text>
        </li>
      ))}
    </ul>
  );
}

type StatusTicket = Pick<Ticket, 'id' | 'status' | 'assigned_to' | 'category' | 'created_by' | 'number'>;

/** PATCH /tickets/{id}/status {status}, offering only the statuses the viewer may move the ticket to. */
export function StatusSelect({
  ticket,
  viewer,
  size,
}: {
  ticket: StatusTicket;
  viewer: Viewer;
  size?: 'small' | 'middle';
}) {
  const { run, isPending } = useTicketCall();
  // Shown once the role matrix lets the role call PATCH /tickets/:id/status (every signed-in role may).
  const mayChange = useAllowed('tickets', 'change-status');
  if (!mayChange) return null;
  const options = nextStatuses(viewer, ticket);
  return (
    <Select<TicketStatus>
      size={size}
      style={{ minWidth: 190 }}
      value={null as unknown as TicketStatus}
      placeholder={options.length ? t('tickets.actions.status') : t('tickets.actions.noStatus')}
      aria-label={t('tickets.actions.status')}
      data-testid={`status-select-${ticket.id}`}
      disabled={options.length === 0 || isPending}
      loading={isPending}
      options={options.map((s) => ({ value: s, label: t(`tickets.status.${s}`) }))}
      onClick={(e) => e.stopPropagation()}
      onChange={(status) =>
        void run({
          url: `${ticketUrl(ticket.id)}/status`,
          method: 'patch',
          values: { status },
          success: t('tickets.toast.status'),
          fallbackKey: 'errors.tickets.status',
        })
      }
    />
  );
}

const UNASSIGNED = '__none__';

/** PATCH /tickets/{id}/assign {assigned_to}: an active staff user, or null (admin and support). */
export function AssignSelect({
  ticket,
  size,
}: {
  ticket: Pick<Ticket, 'id' | 'assigned_to' | 'assigned_to_name'>;
  size?: 'small' | 'middle';
}) {
  const { run, isPending } = useTicketCall();
  const { assignees, isLoading } = useAssignees();
  const known = assignees.some((a) => a.id === ticket.assigned_to);
  const options = [
    { value: UNASSIGNED, label: t('tickets.actions.unassign') },
    ...assignees.map((a) => ({ value: a.id, label: `${a.name} (${a.role})` })),
    ...(ticket.assigned_to && !known
      ? [{ value: ticket.assigned_to, label: ticket.assigned_to_name ?? ticket.assigned_to }]
      : []),
  ];
  return (
    <Select<string>
      size={size}
      showSearch
      optionFilterProp="label"
      style={{ minWidth: 200 }}
      aria-label={t('tickets.actions.assign')}
      data-testid={`assign-select-${ticket.id}`}
      value={ticket.assigned_to ?? UNASSIGNED}
      loading={isLoading || isPending}
      disabled={isPending}
      options={options}
      onClick={(e) => e.stopPropagation()}
      onChange={(value) => {
        const assigned_to = value === UNASSIGNED ? null : value;
        void run({
          url: `${ticketUrl(ticket.id)}/assign`,
          method: 'patch',
          values: { assigned_to },
          success: assigned_to ? t('tickets.toast.assigned') : t('tickets.toast.unassigned'),
          fallbackKey: 'errors.tickets.assign',
        });
      }}
    />
  );
}

/**
 * A table of tickets as every ticket view shows them: a row opens its ticket (click, or Enter on the focused row),
 * the empty text, the server's paging. `tableProps` are Refine's useTable's; the rest
 * (a row selection) passes through.
 */
export function TicketsTable({
  tableProps,
  columns,
  rowSelection,
  sizeChanger = false,
}: {
  tableProps: TableProps<Ticket>;
  columns: ResponsiveColumn<Ticket>[];
  rowSelection?: TableProps<Ticket>['rowSelection'];
  /** The page size chooser (the managing view, with its bulk actions). */
  sizeChanger?: boolean;
}) {
  const navigate = useNavigate();
  return (
    <ResponsiveTable<Ticket>
      {...tableProps}
      rowKey="id"
      size="middle"
      columns={columns}
      onOpen={(r) => navigate(ticketPath(r.id))}
      locale={{ emptyText: t('tickets.empty') }}
      pagination={tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: sizeChanger } : false}
      rowSelection={rowSelection}
    />
  );
}
