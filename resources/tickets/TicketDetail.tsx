import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Empty,
  Form,
  Input,
  Popconfirm,
  Progress,
  Result,
  Space,
  Spin,
  Tag,
  Typography,
  theme,
} from 'antd';
import { ArrowLeftOutlined, DeleteOutlined, LockOutlined, UploadOutlined } from '@ant-design/icons';
import { useCustom, useNotification, type HttpError } from '@refinedev/core';
import { Link, useNavigate, useParams } from 'react-router';
import { canAccessRoute, isStaff } from '../../contract/roles';
import type { TicketAttachment, TicketReply } from '../../contract/schemas/ticket';
import { useViewport } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { EditTicket, canEdit } from './EditTicket';
import { errorToast, ticketUrl, uploadAttachments, useRefreshTickets, useTicket, useTicketCall } from './api';
import { formatDateTime } from './rules';
import {
  AssignSelect,
  AttachmentList,
  AttachmentPicker,
  PriorityTag,
  StatusSelect,
  StatusTag,
  useCanAssign,
  useCanDeleteTicket,
  useViewer,
} from './ui';
import { HeaderTitle, PageTitle } from '../../src/components/Text';

/** The subscription's detail route: the customer's own page, or the staff detail. */
const subscriptionPath = (viewer: { role: string }, id: string) =>
  viewer.role === 'user'
    ? `/subscription/${encodeURIComponent(id)}`
    : `/dashboard/subscription/${encodeURIComponent(id)}`;

/** A read of one of the ticket's lists (replies, attachments) with its own loading and error state. */
function useTicketList<T>(id: string, what: 'replies' | 'attachments', fallbackKey: string) {
  const { query, result } = useCustom<T[]>({
    url: `${ticketUrl(id)}/${what}`,
    method: 'get',
    meta: { fallbackMessage: t(fallbackKey) },
    errorNotification: errorToast(fallbackKey),
    queryOptions: { enabled: !!id, retry: false },
  });
  return {
    items: Array.isArray(result.data) ? (result.data as unknown as T[]) : [],
    isLoading: query.isLoading,
    error: query.isError ? query.error?.message || t(fallbackKey) : null,
  };
}

function ReplyItem({ reply }: { reply: TicketReply }) {
  const { token } = theme.useToken();
  const staff = reply.author_role !== 'user';
  return (
    <li
      data-testid="reply"
      data-internal={reply.is_internal ? 'true' : 'false'}
      style={{
        listStyle: 'none',
        marginBottom: 12,
        padding: 12,
        borderRadius: 8,
        // Theme colours, so the text stays readable in dark mode (fixed light tints left white text on white).
        border: reply.is_internal
          ? `1px dashed ${token.colorWarningBorder}`
          : `1px solid ${token.colorBorderSecondary}`,
        background: reply.is_internal ? token.colorWarningBg : staff ? token.colorPrimaryBg : token.colorBgContainer,
      }}
    >
      <Space size="small" wrap>
        <Typography.Text strong>{reply.author_name}</Typography.Text>
        {staff && <Tag>{t('tickets.conversation.staff')}</Tag>}
        {reply.is_internal && (
          <Tag color="gold" icon={<LockOutlined />}>
            {t('tickets.conversation.internal')}
          </Tag>
        )}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {formatDateTime(reply.created_at)}
        </Typography.Text>
      </Space>
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: '6px 0 0' }} data-testid="reply-message">
        {reply.message}
      </Typography.Paragraph>
    </li>
  );
}

/**
 * /dashboard/tickets/{id}: the conversation. Header, description, replies in order (internal notes marked;
 * the server sends them to staff only), attachments with authorised downloads, the reply box (staff may mark an
 * internal note), uploads with progress, and the controls the viewer's role allows: status (only the allowed
 * next statuses), assignment (admin, support), delete (admin, with confirmation).
 */
export function TicketDetail() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const viewer = useViewer();
  const { open } = useNotification();
  const refresh = useRefreshTickets();
  const { ticket, isLoading, error, notFound } = useTicket(id);
  const replies = useTicketList<TicketReply>(id, 'replies', 'errors.tickets.replies');
  const attachments = useTicketList<TicketAttachment>(id, 'attachments', 'errors.tickets.attachments');
  const reply = useTicketCall();
  const remove = useTicketCall();
  const [form] = Form.useForm<{ message: string; is_internal?: boolean }>();
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  // Below md the card's one-line head leaves the subject a few pixels beside the controls: it goes above them.
  const { narrow } = useViewport();
  const mayAssign = useCanAssign();
  const mayDelete = useCanDeleteTicket();

  if (isLoading) return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  if (!ticket || !viewer) {
    return (
      <Result
        status={notFound ? '404' : 'error'}
        title={error ?? t('errors.tickets.one')}
        extra={<Link to="/dashboard/tickets">{t('tickets.back')}</Link>}
      />
    );
  }

  const staff = isStaff(viewer.role);
  const closed = ticket.status === 'closed';

  const send = async (values: { message: string; is_internal?: boolean }) => {
    const body: Record<string, unknown> = { message: values.message.trim() };
    if (staff && values.is_internal) body.is_internal = true;
    const saved = await reply.run({
      url: `${ticketUrl(ticket.id)}/replies`,
      method: 'post',
      values: body,
      success: t('tickets.toast.replied'),
      fallbackKey: 'errors.tickets.reply',
    });
    if (saved) form.resetFields();
  };

  const upload = async () => {
    setUploadError(null);
    setProgress(0);
    try {
      await uploadAttachments(ticket.id, files, setProgress);
      setFiles([]);
      open?.({ type: 'success', message: t('tickets.attachments.uploaded') });
      refresh();
    } catch (e) {
      const message = (e as HttpError)?.message || t('errors.tickets.attachment');
      setUploadError(message);
      open?.({ type: 'error', message });
    } finally {
      setProgress(null);
    }
  };

  const destroy = async () => {
    const done = await remove.run({
      url: ticketUrl(ticket.id),
      method: 'delete',
      success: t('tickets.toast.deleted'),
      fallbackKey: 'errors.tickets.delete',
    });
    if (done !== undefined) navigate('/dashboard/tickets');
  };

  const documentTitle = `${ticket.number} ${ticket.subject}`;
  const heading = (
    <Space wrap>
      <span>{ticket.number}</span>
      <span>{ticket.subject}</span>
    </Space>
  );
  const controls = (
    <Space wrap>
      {canEdit(viewer, ticket) && <EditTicket ticket={ticket} />}
      <StatusSelect ticket={ticket} viewer={viewer} />
      {mayAssign && <AssignSelect ticket={ticket} />}
      {mayDelete && (
        <Popconfirm
          title={t('tickets.actions.confirmDelete')}
          okText={t('tickets.actions.confirm')}
          cancelText={t('tickets.actions.cancel')}
          onConfirm={destroy}
        >
          <Button danger icon={<DeleteOutlined />} loading={remove.isPending}>
            {t('tickets.actions.delete')}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Link to="/dashboard/tickets">
        <ArrowLeftOutlined /> {t('tickets.back')}
      </Link>
      <Card
        title={narrow ? undefined : <HeaderTitle documentTitle={documentTitle}>{heading}</HeaderTitle>}
        extra={narrow ? undefined : controls}
      >
        {narrow && (
          <Space direction="vertical" size="middle" style={{ width: '100%', marginBottom: 16 }}>
            <PageTitle documentTitle={documentTitle}>{heading}</PageTitle>
            {controls}
          </Space>
        )}
        {remove.error && <Alert type="error" showIcon message={remove.error} style={{ marginBottom: 16 }} />}
        <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }} data-testid="ticket-header">
          <Descriptions.Item label={t('tickets.fields.status')}>
            <StatusTag status={ticket.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('tickets.fields.priority')}>
            <PriorityTag priority={ticket.priority} />
          </Descriptions.Item>
          <Descriptions.Item label={t('tickets.fields.category')}>
            {t(`tickets.category.${ticket.category}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('tickets.fields.creator')}>{ticket.created_by_name}</Descriptions.Item>
          <Descriptions.Item label={t('tickets.fields.assignee')}>{ticket.assigned_to_name ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('tickets.fields.created')}>{formatDateTime(ticket.created_at)}</Descriptions.Item>
          <Descriptions.Item label={t('tickets.fields.updated')}>{formatDateTime(ticket.updated_at)}</Descriptions.Item>
          {ticket.subscription_id && (
            <Descriptions.Item label={t('tickets.fields.subscription')}>
              {canAccessRoute(viewer.role, subscriptionPath(viewer, ticket.subscription_id)) ? (
                <Link to={subscriptionPath(viewer, ticket.subscription_id)}>{t('tickets.subscriptionLink')}</Link>
              ) : (
                t('tickets.subscriptionLink')
              )}
            </Descriptions.Item>
          )}
          {ticket.last_reply_at && (
            <Descriptions.Item label={t('tickets.fields.lastReply')}>
              {formatDateTime(ticket.last_reply_at)}
            </Descriptions.Item>
          )}
          {ticket.resolved_at && (
            <Descriptions.Item label={t('tickets.fields.resolved')}>
              {formatDateTime(ticket.resolved_at)}
            </Descriptions.Item>
          )}
        </Descriptions>
        <Typography.Title level={2} style={{ fontSize: 16 }}>
          {t('tickets.fields.description')}
        </Typography.Title>
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }} data-testid="ticket-description">
          {ticket.description}
        </Typography.Paragraph>
      </Card>

      <Card title={t('tickets.fields.attachments')}>
        {attachments.isLoading ? (
          <Spin />
        ) : attachments.error ? (
          <Alert type="error" showIcon message={attachments.error} />
        ) : (
          <AttachmentList attachments={attachments.items} />
        )}
        {!closed && (
          <div style={{ marginTop: 16 }}>
            <AttachmentPicker files={files} onChange={setFiles} disabled={progress !== null} />
            <Button
              style={{ marginTop: 8 }}
              icon={<UploadOutlined />}
              disabled={files.length === 0}
              loading={progress !== null}
              onClick={() => void upload()}
            >
              {t('tickets.attachments.upload')}
            </Button>
            {progress !== null && <Progress percent={progress} aria-label={t('tickets.form.uploading')} />}
            {uploadError && <Alert type="error" showIcon message={uploadError} style={{ marginTop: 8 }} />}
          </div>
        )}
      </Card>

      <Card title={t('tickets.conversation.title')}>
        {replies.isLoading ? (
          <Spin />
        ) : replies.error ? (
          <Alert type="error" showIcon message={replies.error} />
        ) : replies.items.length === 0 ? (
          <Empty description={t('tickets.conversation.empty')} />
        ) : (
          <ol style={{ padding: 0, margin: 0 }} data-testid="replies">
            {replies.items.map((r) => (
              <ReplyItem key={r.id} reply={r} />
            ))}
          </ol>
        )}
        {closed ? (
          <Typography.Text type="secondary">{t('tickets.conversation.closed')}</Typography.Text>
        ) : (
          <Form
            form={form}
            name="ticket-reply"
            layout="vertical"
            onFinish={send}
            style={{ marginTop: 16 }}
            disabled={reply.isPending}
          >
            <Form.Item
              name="message"
              label={t('tickets.conversation.reply')}
              rules={[{ required: true, whitespace: true, message: t('tickets.conversation.messageRequired') }]}
            >
              <Input.TextArea rows={4} maxLength={10_000} />
            </Form.Item>
            {staff && (
              <Form.Item name="is_internal" valuePropName="checked" extra={t('tickets.conversation.internalHint')}>
                <Checkbox>{t('tickets.conversation.internal')}</Checkbox>
              </Form.Item>
            )}
            {reply.error && <Alert type="error" showIcon message={reply.error} style={{ marginBottom: 16 }} />}
            <Button type="primary" htmlType="submit" loading={reply.isPending}>
              {t('tickets.conversation.send')}
            </Button>
          </Form>
        )}
      </Card>
    </Space>
  );
}
