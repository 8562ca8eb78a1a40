import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AxiosAdapter } from 'axios';
import type { Role } from '../../contract/roles';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { httpClient } from '../../providers/http-client';
import { clearSession, saveSession } from '../../providers/session';
import { TicketArea, TicketDetail } from '../../resources/tickets';
import { FakeApi, fail, ok, sampleUser } from '../providers/support/fake-api';
import { currentUrl, renderScreen, toastText } from './support/render';
import { resetViewport, setViewportWidth } from '../helpers/viewport';

const ME = sampleUser.id;
const T1 = '11111111-1111-4111-8111-111111111111';
const T2 = '22222222-2222-4222-8222-222222222222';
const SUB = '33333333-3333-4333-8333-333333333333';
const STAFF = '44444444-4444-4444-8444-444444444444';

const ticket = (over: Record<string, unknown> = {}) => ({
  id: T1,
  number: 'T-000001',
  subject: 'Internet drops at night',
  description: 'Every night at 2am the line drops.',
  category: 'technical',
  priority: 'normal',
  status: 'open',
  created_by: ME,
  created_by_name: 'Ada Customer',
  created_by_email: 'ada@example.com',
  assigned_to: null,
  assigned_to_name: null,
  subscription_id: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-02T10:00:00.000Z',
  resolved_at: null,
  last_reply_at: null,
  first_response_at: null,
  ...over,
});
const page = (items: unknown[], total = items.length, p = 1) =>
  ok({
    items,
    pagination: {
      page: p,
      totalPages: Math.max(1, Math.ceil(total / 10)),
      total,
      hasNext: p * 10 < total,
      hasPrev: p > 1,
    },
  });
const reply = (id: string, message: string, over: Record<string, unknown> = {}) => ({
  id,
  ticket_id: T1,
  author_id: STAFF,
  author_name: 'Sam Support',
  author_role: 'support',
  message,
  is_internal: false,
  created_at: '2026-11-01T11:00:00.000Z',
  ...over,
});

const routes = [
  { path: '/dashboard/tickets', element: <TicketArea /> },
  { path: '/dashboard/tickets/:id', element: <TicketDetail /> },
];

function signIn(role: Role = 'user') {
  setAuthState({ user: { ...sampleUser, role }, isAuthenticated: true, isLoading: false });
}

const originalAdapter = httpClient.defaults.adapter;
/** Uploads go through the app's http client (onUploadProgress): answer them from the same fake API. */
function useFakeForUploads(api: FakeApi) {
  httpClient.defaults.adapter = api.adapter as AxiosAdapter;
}

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const items = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
  fireEvent.click(items[items.length - 1]);
}

function fileOf(name: string, size: number, type = 'text/plain'): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

function detailApi(over: Record<string, unknown> = {}, replies: unknown[] = []) {
  return new FakeApi()
    .on(`GET /tickets/${T1}`, ok({ ...ticket(over), replies, attachments: [] }))
    .on(`GET /tickets/${T1}/replies`, ok(replies))
    .on(`GET /tickets/${T1}/attachments`, ok([]));
}

beforeEach(() => signIn('user'));
afterEach(() => {
  cleanup();
  clearSession();
  resetAuthState();
  httpClient.defaults.adapter = originalAdapter;
});

describe('customer ticket list', () => {
  it('lists my tickets with status and priority tags, filters by status and pages on the server', async () => {
    const api = new FakeApi().on('GET /subscriptions/orders', ok([])).on('GET /tickets', (call) =>
      page(
        [
          ticket({
            subject: `Page ${String(call.params.page)}${call.params.status ? ` ${String(call.params.status)}` : ''}`,
            priority: 'urgent',
          }),
        ],
        25,
        Number(call.params.page),
      ),
    );
    renderScreen(api, '/dashboard/tickets', routes);
    expect(await screen.findByText('Page 1')).toBeTruthy();
    const row = screen.getByText('Page 1').closest('tr')!;
    expect(within(row).getByText('T-000001')).toBeTruthy();
    expect(within(row).getByText('Open')).toBeTruthy();
    expect(within(row).getByText('Urgent')).toBeTruthy();
    expect(api.last('GET /tickets')!.params).toEqual({ page: '1', limit: '10' });

    await choose('Status', 'Resolved');
    expect(await screen.findByText('Page 1 resolved')).toBeTruthy();
    expect(api.last('GET /tickets')!.params).toMatchObject({ status: 'resolved', page: '1' });

    fireEvent.click(screen.getByTitle('Next Page'));
    expect(await screen.findByText('Page 2 resolved')).toBeTruthy();
  });

  it('on a phone (390 px) each ticket is a card with its number and subject, status and priority as labels, paged', async () => {
    setViewportWidth(390);
    try {
      const api = new FakeApi()
        .on('GET /subscriptions/orders', ok([]))
        .on('GET /tickets', (call) =>
          page(
            [ticket({ subject: `Page ${String(call.params.page)}`, priority: 'urgent' })],
            25,
            Number(call.params.page),
          ),
        );
      renderScreen(api, '/dashboard/tickets', routes);
      const card = await screen.findByTestId('ticket-card');
      expect(document.querySelector('.ant-table')).toBeNull();
      expect(within(card).getByRole('link', { name: 'T-000001 · Page 1' }).getAttribute('href')).toBe(
        `/dashboard/tickets/${T1}`,
      );
      expect(within(card).getByText('Open')).toBeTruthy();
      expect(within(card).getByText('Urgent')).toBeTruthy();
      fireEvent.click(screen.getByTitle('Next Page'));
      expect(await within(await screen.findByTestId('ticket-cards')).findByText('T-000001 · Page 2')).toBeTruthy();
      expect(api.last('GET /tickets')!.params).toMatchObject({ page: '2' });
    } finally {
      resetViewport();
    }
  });

  it('shows the server message, else "Failed to fetch tickets"', async () => {
    renderScreen(new FakeApi().on('GET /tickets', fail(500)), '/dashboard/tickets', routes);
    expect(await screen.findByText('Failed to fetch tickets', { selector: '.ant-alert-message' })).toBeTruthy();
    cleanup();
    renderScreen(new FakeApi().on('GET /tickets', fail(503, 'Database is down')), '/dashboard/tickets', routes);
    expect(await screen.findByText('Database is down', { selector: '.ant-alert-message' })).toBeTruthy();
  });
});

describe('new ticket', () => {
  async function openForm(api: FakeApi) {
    renderScreen(api, '/dashboard/tickets', routes);
    fireEvent.click(await screen.findByRole('button', { name: /New ticket/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Subject'), { target: { value: 'Router blinks red' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Since this morning.' } });
    return dialog;
  }

  it('creates the ticket, then uploads the files to it (multipart "files") with progress, then opens it', async () => {
    let progressSeen = false;
    const api = new FakeApi()
      .on('GET /tickets', page([]))
      .on(
        'GET /subscriptions/orders',
        ok([{ id: SUB, plan_id: 'p', plan_name: 'Fiber 100', status: 'active', invoices: [], payments: [] }]),
      )
      .on('POST /tickets', {
        status: 201,
        body: {
          success: true,
          message: 'Ticket created successfully',
          data: { ...ticket({ id: T2, subject: 'Router blinks red' }), replies: [], attachments: [] },
        },
      })
      .on(`POST /tickets/${T2}/attachments`, async (call) => {
        call.config.onUploadProgress?.({ loaded: 50, total: 100, bytes: 50, lengthComputable: true } as never);
        await waitFor(() => expect(document.querySelector('.ant-progress-text')?.textContent).toBe('50%'), {
          timeout: 5000,
        });
        progressSeen = true;
        return { status: 201, body: { success: true, message: 'Attachments uploaded successfully', data: [] } };
      })
      .on(
        `GET /tickets/${T2}`,
        ok({ ...ticket({ id: T2, subject: 'Router blinks red' }), replies: [], attachments: [] }),
      )
      .on(`GET /tickets/${T2}/replies`, ok([]))
      .on(`GET /tickets/${T2}/attachments`, ok([]));
    useFakeForUploads(api);
    const dialog = await openForm(api);
    await choose('Priority', 'High');
    await choose('Related subscription', 'Fiber 100 · active');
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [fileOf('photo.png', 2048, 'image/png'), fileOf('modem.log', 300)] } });
    expect(await within(dialog).findByText('modem.log')).toBeTruthy();
    expect(within(dialog).getByText('photo.png')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create ticket' }));
    // Create, upload (with the progress check above) and navigate: more than waitFor's 1 s on a loaded machine.
    await waitFor(() => expect(currentUrl).toBe(`/dashboard/tickets/${T2}`), { timeout: 5000 });
    expect(api.last('POST /tickets')!.body).toEqual({
      subject: 'Router blinks red',
      description: 'Since this morning.',
      category: 'other',
      priority: 'high',
      subscription_id: SUB,
    });
    const upload = api.last(`POST /tickets/${T2}/attachments`)!;
    expect(upload.body).toBeInstanceOf(FormData);
    const sent = (upload.body as FormData).getAll('files') as File[];
    expect(sent.map((f) => f.name)).toEqual(['photo.png', 'modem.log']);
    // The POST came before the upload, and the progress bar was on screen while uploading.
    expect(api.calls.findIndex((c) => c.method === 'post' && c.path === '/tickets')).toBeLessThan(
      api.calls.findIndex((c) => c.path === `/tickets/${T2}/attachments`),
    );
    expect(progressSeen).toBe(true);
    expect(await screen.findByText('Router blinks red')).toBeTruthy();
  });

  it('refuses a file over 10 MB before sending anything, with a clear message', async () => {
    const api = new FakeApi().on('GET /tickets', page([])).on('GET /subscriptions/orders', ok([]));
    useFakeForUploads(api);
    const dialog = await openForm(api);
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [fileOf('huge.pdf', 10 * 1024 * 1024 + 1, 'application/pdf')] } });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('“huge.pdf” is too large (max 10 MB per file)');
    expect(within(dialog).queryByText('huge.pdf')).toBeNull();
    // A sixth file is refused as well (the upload widget renders a fresh input after each choice).
    fireEvent.change(dialog.querySelector('input[type="file"]') as HTMLInputElement, {
      target: { files: [1, 2, 3, 4, 5, 6].map((n) => fileOf(`f${n}.txt`, 10)) },
    });
    expect(await within(dialog).findByText('At most 5 files per upload')).toBeTruthy();
    expect(within(dialog).getByText('f5.txt')).toBeTruthy();
    expect(within(dialog).queryByText('f6.txt')).toBeNull();
    expect(api.calls.filter((c) => c.method === 'post')).toHaveLength(0);
  });

  it('shows "Failed to create ticket" when the server sends no message, and stays on the form', async () => {
    const api = new FakeApi()
      .on('GET /tickets', page([]))
      .on('GET /subscriptions/orders', ok([]))
      .on('POST /tickets', fail(500));
    const dialog = await openForm(api);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create ticket' }));
    expect(await within(dialog).findByText('Failed to create ticket', { selector: '.ant-alert-message' })).toBeTruthy();
    await waitFor(() => expect(toastText()).toContain('Failed to create ticket'));
    expect(currentUrl.split('?')[0]).toBe('/dashboard/tickets');
  });
});

describe('conversation', () => {
  it('shows the replies in order with internal notes marked, and a reply posts {message}', async () => {
    signIn('user');
    const replies = [
      reply('a1111111-1111-4111-8111-111111111111', 'First answer'),
      reply('a2222222-2222-4222-8222-222222222222', 'Thanks, still broken', {
        author_id: ME,
        author_name: 'Ada Customer',
        author_role: 'user',
        created_at: '2026-11-01T12:00:00.000Z',
      }),
      reply('a3333333-3333-4333-8333-333333333333', 'Check the line card', {
        is_internal: true,
        created_at: '2026-11-01T13:00:00.000Z',
      }),
    ];
    const api = detailApi({ status: 'waiting_customer' }, replies).on(`POST /tickets/${T1}/replies`, {
      status: 201,
      body: {
        success: true,
        message: 'Reply added successfully',
        data: reply('a4444444-4444-4444-8444-444444444444', 'Now it works'),
      },
    });
    renderScreen(api, `/dashboard/tickets/${T1}`, routes);
    const items = await screen.findAllByTestId('reply');
    expect(items.map((i) => within(i).getByTestId('reply-message').textContent)).toEqual([
      'First answer',
      'Thanks, still broken',
      'Check the line card',
    ]);
    expect(items.map((i) => i.dataset.internal)).toEqual(['false', 'false', 'true']);
    expect(within(items[2]).getByText('Internal note')).toBeTruthy();
    expect(within(items[0]).queryByText('Internal note')).toBeNull();
    expect(screen.getByTestId('ticket-description').textContent).toBe('Every night at 2am the line drops.');
    // A customer gets no internal-note checkbox.
    expect(screen.queryByRole('checkbox', { name: 'Internal note' })).toBeNull();

    const before = api.count(`GET /tickets/${T1}/replies`);
    fireEvent.change(screen.getByLabelText('Your reply'), { target: { value: '  Now it works ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await waitFor(() => expect(api.last(`POST /tickets/${T1}/replies`)).toBeTruthy());
    expect(api.last(`POST /tickets/${T1}/replies`)!.body).toEqual({ message: 'Now it works' });
    // The conversation (and the ticket, which the server may have re-opened) are read again.
    await waitFor(() => expect(api.count(`GET /tickets/${T1}/replies`)).toBeGreaterThan(before));
    await waitFor(() => expect(toastText()).toContain('Reply added successfully'));
  });

  it('lists attachments as authorised downloads (bearer token, Blob) and uploads new ones', async () => {
    const att = {
      id: 'b1111111-1111-4111-8111-111111111111',
      ticket_id: T1,
      reply_id: null,
      original_name: 'bill.pdf',
      size: 2048,
      content_type: 'application/pdf',
      uploaded_by: ME,
      uploaded_by_name: 'Ada Customer',
      created_at: '2026-11-01T10:00:00.000Z',
      download_url: `/api/tickets/${T1}/attachments/b1111111-1111-4111-8111-111111111111/download`,
    };
    const api = detailApi().on(`GET /tickets/${T1}/attachments`, ok([att]));
    renderScreen(api, `/dashboard/tickets/${T1}`, routes);
    const link = await screen.findByRole('link', { name: 'Download bill.pdf' });
    expect(link.getAttribute('href')).toBe(att.download_url);
    expect(screen.getByText(/2\.0 KB · Ada Customer/)).toBeTruthy();

    // A download goes through the http client (bearer token), not a bare link.
    saveSession('access-token');
    useFakeForUploads(api);
    URL.createObjectURL = vi.fn(() => 'blob:attachment');
    URL.revokeObjectURL = vi.fn();
    api.on(`GET /tickets/${T1}/attachments/${att.id}/download`, { status: 200, body: new Blob(['%PDF']) });
    fireEvent.click(link);
    await waitFor(() => expect(api.last(`GET /tickets/${T1}/attachments/${att.id}/download`)).toBeTruthy());
    const download = api.last(`GET /tickets/${T1}/attachments/${att.id}/download`)!;
    expect(download.authorization).toBe('Bearer access-token');
    expect(download.config.responseType).toBe('blob');
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());

    // A new upload: the chosen file goes to the ticket, then the list is read again.
    const uploaded = {
      ...att,
      id: 'b2222222-2222-4222-8222-222222222222',
      original_name: 'speedtest.png',
      download_url: `/api/tickets/${T1}/attachments/b2222222-2222-4222-8222-222222222222/download`,
    };
    api.on(`POST /tickets/${T1}/attachments`, {
      status: 201,
      body: { success: true, message: 'Attachments uploaded successfully', data: [uploaded] },
    });
    fireEvent.change(document.querySelector('input[type="file"]') as HTMLInputElement, {
      target: { files: [fileOf('speedtest.png', 4096, 'image/png')] },
    });
    api.on(`GET /tickets/${T1}/attachments`, ok([att, uploaded]));
    fireEvent.click(await screen.findByRole('button', { name: /Upload/ }));
    expect(await screen.findByRole('link', { name: 'Download speedtest.png' })).toBeTruthy();
    expect(
      ((api.last(`POST /tickets/${T1}/attachments`)!.body as FormData).getAll('files') as File[]).map((f) => f.name),
    ).toEqual(['speedtest.png']);
  });

  it("keeps each operation's error apart, with the spec texts", async () => {
    const api = new FakeApi()
      .on(`GET /tickets/${T1}`, ok({ ...ticket(), replies: [], attachments: [] }))
      .on(`GET /tickets/${T1}/replies`, fail(500))
      .on(`GET /tickets/${T1}/attachments`, fail(500))
      .on(`POST /tickets/${T1}/replies`, fail(500))
      .on(`POST /tickets/${T1}/attachments`, fail(500));
    useFakeForUploads(api);
    renderScreen(api, `/dashboard/tickets/${T1}`, routes);
    expect(await screen.findByText('Failed to fetch replies', { selector: '.ant-alert-message' })).toBeTruthy();
    expect(await screen.findByText('Failed to fetch attachments', { selector: '.ant-alert-message' })).toBeTruthy();
    expect(screen.queryByText('Failed to add reply')).toBeNull();

    fireEvent.change(screen.getByLabelText('Your reply'), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Failed to add reply', { selector: '.ant-alert-message' })).toBeTruthy();

    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [fileOf('a.txt', 10)] } });
    fireEvent.click(await screen.findByRole('button', { name: /Upload/ }));
    expect(await screen.findByText('Failed to add attachment', { selector: '.ant-alert-message' })).toBeTruthy();
  });

  it('the creator edits an open ticket (PUT with the changed fields only); a failure reads "Failed to update ticket"', async () => {
    const api = detailApi().on(`PUT /tickets/${T1}`, fail(500));
    renderScreen(api, `/dashboard/tickets/${T1}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: /Edit ticket/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Subject'), { target: { value: 'Internet drops every night' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Failed to update ticket', { selector: '.ant-alert-message' })).toBeTruthy();
    expect(api.last(`PUT /tickets/${T1}`)!.body).toEqual({ subject: 'Internet drops every night' });

    api.on(`PUT /tickets/${T1}`, ok(ticket({ subject: 'Internet drops every night' })));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastText()).toContain('Ticket updated successfully'));
    // The dialog closes (under jsdom antd's leave animation never ends, so the closing state is what shows).
    await waitFor(() => expect(dialog.className).toContain('ant-zoom-leave'));
  });

  it('no edit once staff work on it; a customer may close their ticket; the related subscription is linked', async () => {
    const api = detailApi({ status: 'in_progress', subscription_id: SUB });
    renderScreen(api, `/dashboard/tickets/${T1}`, routes);
    const select = await screen.findByTestId(`status-select-${T1}`);
    expect(screen.getByRole('link', { name: 'View subscription' }).getAttribute('href')).toBe(`/subscription/${SUB}`);
    expect(screen.queryByRole('button', { name: /Edit ticket/ })).toBeNull();
    fireEvent.mouseDown(within(select).getByRole('combobox'));
    const options = await screen.findAllByText(/./, { selector: '.ant-select-item-option-content' });
    expect(options.map((o) => o.textContent)).toEqual(['Closed']);
  });

  it('a ticket the caller may not see reads as not found, with the server message (else "Failed to fetch ticket")', async () => {
    renderScreen(
      new FakeApi().on(`GET /tickets/${T1}`, fail(404, 'Ticket not found')),
      `/dashboard/tickets/${T1}`,
      routes,
    );
    expect(await screen.findByText('Ticket not found', { selector: '.ant-result-title' })).toBeTruthy();
    cleanup();
    renderScreen(new FakeApi().on(`GET /tickets/${T1}`, fail(500)), `/dashboard/tickets/${T1}`, routes);
    expect(await screen.findByText('Failed to fetch ticket', { selector: '.ant-result-title' })).toBeTruthy();
  });
});
