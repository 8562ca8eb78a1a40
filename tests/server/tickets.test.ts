/**
 * Tickets API (issue 5): every endpoint by every role, who sees which ticket (others get 404), status
 * transitions, assignment, internal notes, re-opening on a customer reply, the e-mails that go out, and the demo
 * seed. Lists, filters, paging and statistics: ticket-lists.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../server/db/seed';
import { bearer, createTestApp } from '../helpers/server';
import type { Role } from '../../contract/roles';
import { ALL_ROLES, caller, setup, type Ctx, type T, type Who } from '../helpers/tickets';

describe('tickets API', () => {
  let ctx: Ctx;
  let call: ReturnType<typeof caller>;
  const open = async (who: Who, body: Record<string, unknown>): Promise<T> => {
    const res = await call('POST', '/tickets', who, {
      subject: 'Internet is down',
      description: 'No light on the router.',
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };

  beforeAll(async () => {
    ctx = await setup();
    call = caller(ctx);
  });
  afterAll(() => ctx.t.close());

  it('lets every signed-in user open a ticket, numbered T-000001, T-000002...; visitors get 401', async () => {
    expect((await call('POST', '/tickets', undefined, { subject: 'Hello', description: 'x' })).statusCode).toBe(401);
    const numbers: string[] = [];
    for (const role of ALL_ROLES) {
      const res = await call('POST', '/tickets', role, {
        subject: `From ${role}`,
        description: 'Please help',
        category: 'account',
        priority: 'high',
      });
      expect([role, res.statusCode]).toEqual([role, 201]);
      const data = res.json().data;
      expect(res.json().message).toBe('Ticket created successfully');
      expect(data).toMatchObject({
        subject: `From ${role}`,
        status: 'open',
        category: 'account',
        priority: 'high',
        created_by: ctx.people[role]!.id,
        created_by_name: `${role} person`,
        assigned_to: null,
        replies: [],
        attachments: [],
        resolved_at: null,
        first_response_at: null,
      });
      numbers.push(data.number);
    }
    expect(numbers).toEqual(['T-000001', 'T-000002', 'T-000003', 'T-000004', 'T-000005', 'T-000006']);
    const defaults = await open('user', {});
    expect(defaults).toMatchObject({ category: 'other', priority: 'normal' });
  });

  it('validates the body and names the fields', async () => {
    const res = await call('POST', '/tickets', 'user', { subject: 'x', category: 'pizza' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['subject', 'description', 'category']),
    );
  });

  it('lets staff open a ticket for a customer, and nobody else', async () => {
    const res = await call('POST', '/tickets', 'support', {
      subject: 'Called in: slow line',
      description: 'Phoned support',
      created_for: ctx.people.user!.id,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.created_by).toBe(ctx.people.user!.id);
    expect((await call('GET', `/tickets/${res.json().data.id}`, 'user')).statusCode).toBe(200);
    const byCustomer = await call('POST', '/tickets', 'user', {
      subject: 'For Olga',
      description: 'x',
      created_for: ctx.people.other!.id,
    });
    expect(byCustomer.statusCode).toBe(403);
    const forStaff = await call('POST', '/tickets', 'support', {
      subject: 'For a tech',
      description: 'x',
      created_for: ctx.people.technician!.id,
    });
    expect(forStaff.statusCode).toBe(400);
    expect(forStaff.json().errors[0].field).toBe('created_for');
  });

  it('links a ticket to one of the customer’s own subscriptions only', async () => {
    const plan = (
      await call('POST', '/plans', 'admin', {
        name: 'Home 100',
        download_mbps: 100,
        upload_mbps: 20,
        price: 2500,
        billing_cycle: 'monthly',
      })
    ).json().data;
    const subscription = (await call('POST', '/subscriptions', 'user', { plan_id: plan.id })).json().data.subscription;
    const linked = await call('POST', '/tickets', 'user', {
      subject: 'Speed below plan',
      description: 'x',
      subscription_id: subscription.id,
    });
    expect(linked.statusCode).toBe(201);
    expect(linked.json().data.subscription_id).toBe(subscription.id);
    const foreign = await call('POST', '/tickets', 'other', {
      subject: 'Not my line',
      description: 'x',
      subscription_id: subscription.id,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors[0].field).toBe('subscription_id');
    // Staff opening a ticket for the customer may link the customer's subscription.
    const forCustomer = await call('POST', '/tickets', 'support', {
      subject: 'Line check',
      description: 'x',
      created_for: ctx.people.user!.id,
      subscription_id: subscription.id,
    });
    expect(forCustomer.statusCode).toBe(201);
  });

  it('answers every endpoint of a customer ticket by role: creator and staff whose view covers it, others 404', async () => {
    // A technical ticket of `user`: admin, super_admin, support (all tickets) and technician (technical queue) see it.
    const ticket = await open('user', { subject: 'Matrix ticket', category: 'technical' });
    const sees: Record<Who, boolean> = {
      user: true,
      admin: true,
      super_admin: true,
      support: true,
      technician: true,
      tech2: true,
      billing: false,
      other: false,
      retired: false,
    };
    for (const who of ['user', 'admin', 'super_admin', 'support', 'technician', 'billing', 'other'] as Who[]) {
      const expectSeen = (status: number) => (sees[who] ? status : 404);
      const got = {
        get: (await call('GET', `/tickets/${ticket.id}`, who)).statusCode,
        replies: (await call('GET', `/tickets/${ticket.id}/replies`, who)).statusCode,
        reply: (await call('POST', `/tickets/${ticket.id}/replies`, who, { message: `hello from ${who}` })).statusCode,
        attachments: (await call('GET', `/tickets/${ticket.id}/attachments`, who)).statusCode,
        upload: (await call('POST', `/tickets/${ticket.id}/attachments`, who, {})).statusCode,
        put: (await call('PUT', `/tickets/${ticket.id}`, who, { priority: 'urgent' })).statusCode,
        download: (
          await call('GET', `/tickets/${ticket.id}/attachments/00000000-0000-4000-8000-000000000000/download`, who)
        ).statusCode,
        status: (await call('PATCH', `/tickets/${ticket.id}/status`, who, { status: 'in_progress' })).statusCode,
      };
      const staffSees = sees[who] && who !== 'user';
      expect([who, got]).toEqual([
        who,
        {
          get: expectSeen(200),
          replies: expectSeen(200),
          reply: expectSeen(201),
          attachments: expectSeen(200),
          upload: expectSeen(400), // not multipart
          put: expectSeen(200), // the creator while open, staff in scope
          download: 404,
          // The customer may not set in_progress (409); staff may, and the same status again changes nothing (200).
          status: staffSees ? 200 : who === 'user' ? 409 : 404,
        },
      ]);
    }
    // Assign and delete are guarded by role: admin/support assign, admin deletes.
    for (const role of ALL_ROLES) {
      const assign = await call('PATCH', `/tickets/${ticket.id}/assign`, role, {
        assigned_to: ctx.people.technician!.id,
      });
      expect([role, assign.statusCode]).toEqual([role, ['admin', 'super_admin', 'support'].includes(role) ? 200 : 403]);
    }
    for (const role of ALL_ROLES.filter((r) => r !== 'admin')) {
      expect([role, (await call('DELETE', `/tickets/${ticket.id}`, role)).statusCode]).toEqual([
        role,
        role === 'super_admin' ? 200 : 403,
      ]);
    }
    expect((await call('GET', `/tickets/${ticket.id}`, 'admin')).statusCode).toBe(404);
    expect((await call('DELETE', `/tickets/${ticket.id}`, 'admin')).statusCode).toBe(404);
    const second = await open('user', {});
    expect((await call('DELETE', `/tickets/${second.id}`, 'admin')).json()).toEqual({
      success: true,
      message: 'Ticket deleted successfully',
      data: null,
    });
    expect((await call('GET', `/tickets/${second.id}`, 'user')).statusCode).toBe(404);
    // Made-up and malformed ids are 404 too; the read endpoints are closed to visitors.
    expect((await call('GET', '/tickets/not-a-uuid', 'admin')).statusCode).toBe(404);
    for (const url of ['/tickets', '/tickets/stats', `/tickets/${ticket.id}`, '/tickets/assigned']) {
      expect((await call('GET', url)).statusCode).toBe(401);
    }
  });

  it('GET /tickets/assigned lists the caller’s assigned tickets, for staff only', async () => {
    const a = await open('user', { subject: 'Assigned to tina', category: 'billing' });
    await open('user', { subject: 'Not assigned', category: 'technical' });
    expect(
      (await call('PATCH', `/tickets/${a.id}/assign`, 'support', { assigned_to: ctx.people.tech2!.id })).statusCode,
    ).toBe(200);
    const res = await call('GET', '/tickets/assigned', 'tech2');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.items.map((x: T) => x.number)).toEqual([a.number]);
    expect(res.json().data.pagination).toEqual({ page: 1, totalPages: 1, total: 1, hasNext: false, hasPrev: false });
    // The assignee sees the ticket although billing is not a technician's category.
    expect((await call('GET', `/tickets/${a.id}`, 'tech2')).statusCode).toBe(200);
    expect((await call('GET', '/tickets/assigned', 'billing')).json().data.items).toEqual([]);
    expect((await call('GET', '/tickets/assigned', 'user')).statusCode).toBe(403);
    for (const role of ['admin', 'super_admin', 'support', 'technician', 'billing'] as Role[]) {
      expect([role, (await call('GET', '/tickets/assigned', role)).statusCode]).toEqual([role, 200]);
    }
  });

  it('assigns only to active staff (else 400); technicians and billing may not assign (403); null unassigns', async () => {
    const ticket = await open('user', { subject: 'Router replacement', category: 'installation' });
    for (const bad of [ctx.people.other!.id, ctx.people.retired!.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await call('PATCH', `/tickets/${ticket.id}/assign`, 'admin', { assigned_to: bad });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: 'Tickets can only be assigned to an active staff user',
        errors: [{ field: 'assigned_to' }],
      });
    }
    expect((await call('PATCH', `/tickets/${ticket.id}/assign`, 'admin', { assigned_to: 'someone' })).statusCode).toBe(
      400,
    );
    expect(
      (await call('PATCH', `/tickets/${ticket.id}/assign`, 'technician', { assigned_to: ctx.people.technician!.id }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('PATCH', `/tickets/${ticket.id}/assign`, 'billing', { assigned_to: ctx.people.billing!.id }))
        .statusCode,
    ).toBe(403);
    expect((await call('GET', `/tickets/${ticket.id}`, 'admin')).json().data.assigned_to).toBeNull();

    const before = (await ctx.t.sentMail()).length;
    const res = await call('PATCH', `/tickets/${ticket.id}/assign`, 'admin', { assigned_to: ctx.people.tech2!.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Ticket assigned successfully',
      data: { assigned_to: ctx.people.tech2!.id, assigned_to_name: 'Tina Tech' },
    });
    const mail = (await ctx.t.sentMail()).slice(before);
    expect(mail.map((m) => m.to)).toEqual(['tina@example.com']);
    expect(mail[0].subject).toContain(ticket.number);
    expect(mail[0].text).toContain(`http://portal.test/dashboard/tickets/${ticket.id}`);

    const unassigned = await call('PATCH', `/tickets/${ticket.id}/assign`, 'support', { assigned_to: null });
    expect(unassigned.json()).toMatchObject({ message: 'Ticket unassigned successfully', data: { assigned_to: null } });
    expect((await ctx.t.sentMail()).length).toBe(before + 1);
  });

  it('keeps internal notes from customers, and lets only staff write them', async () => {
    const ticket = await open('user', { subject: 'Invoice question', category: 'billing' });
    expect(
      (await call('POST', `/tickets/${ticket.id}/replies`, 'user', { message: 'psst', is_internal: true })).statusCode,
    ).toBe(403);
    expect(
      (
        await call('POST', `/tickets/${ticket.id}/replies`, 'billing', {
          message: 'Customer owes 2 months',
          is_internal: true,
        })
      ).statusCode,
    ).toBe(201);
    ctx.clock.advanceMinutes(1);
    expect(
      (await call('POST', `/tickets/${ticket.id}/replies`, 'billing', { message: 'We are checking your invoice.' }))
        .statusCode,
    ).toBe(201);

    const staffView = (await call('GET', `/tickets/${ticket.id}/replies`, 'admin')).json().data;
    expect(staffView.map((r: { message: string; is_internal: boolean }) => [r.message, r.is_internal])).toEqual([
      ['Customer owes 2 months', true],
      ['We are checking your invoice.', false],
    ]);
    const customerReplies = await call('GET', `/tickets/${ticket.id}/replies`, 'user');
    const customerDetail = await call('GET', `/tickets/${ticket.id}`, 'user');
    for (const body of [customerReplies.body, customerDetail.body]) expect(body).not.toContain('owes');
    expect(customerReplies.json().data.map((r: { message: string }) => r.message)).toEqual([
      'We are checking your invoice.',
    ]);
    expect(customerDetail.json().data.replies).toHaveLength(1);
    expect(customerDetail.json().data.replies[0]).toMatchObject({
      author_name: 'billing person',
      author_role: 'billing',
      is_internal: false,
    });
  });

  it('mails the customer on staff replies, the assignee on customer replies; a customer reply puts the ticket back with staff', async () => {
    const ticket = await open('user', { subject: 'Slow evenings', category: 'technical' });
    await call('PATCH', `/tickets/${ticket.id}/assign`, 'support', { assigned_to: ctx.people.technician!.id });
    let before = (await ctx.t.sentMail()).length;

    ctx.clock.advanceMinutes(30);
    expect(
      (
        await call('POST', `/tickets/${ticket.id}/replies`, 'technician', {
          message: 'Internal: line noise',
          is_internal: true,
        })
      ).statusCode,
    ).toBe(201);
    expect((await ctx.t.sentMail()).length).toBe(before); // internal notes mail nobody
    let detail = (await call('GET', `/tickets/${ticket.id}`, 'user')).json().data;
    expect(detail.first_response_at).toBeNull();

    ctx.clock.advanceMinutes(30);
    const staffReply = await call('POST', `/tickets/${ticket.id}/replies`, 'technician', {
      message: 'Please restart the router.\nThen tell us.',
    });
    expect(staffReply.statusCode).toBe(201);
    expect(staffReply.json()).toMatchObject({
      message: 'Reply added successfully',
      data: { author_id: ctx.people.technician!.id, is_internal: false },
    });
    let mail = (await ctx.t.sentMail()).slice(before);
    expect(mail.map((m) => m.to)).toEqual(['user@example.com']);
    expect(mail[0].text).toContain('> Please restart the router.');
    expect(mail[0].text).toContain(`http://portal.test/dashboard/tickets/${ticket.id}`);
    detail = (await call('GET', `/tickets/${ticket.id}`, 'user')).json().data;
    expect(detail.first_response_at).toBe(ctx.clock.now().toISOString());
    expect(detail.last_reply_at).toBe(ctx.clock.now().toISOString());
    // The staff reply leaves the ticket waiting on the customer.
    expect(detail.status).toBe('waiting_customer');

    // A status change by staff mails the customer.
    before = (await ctx.t.sentMail()).length;
    expect((await call('PATCH', `/tickets/${ticket.id}/status`, 'technician', { status: 'open' })).statusCode).toBe(
      200,
    );
    expect(
      (await call('PATCH', `/tickets/${ticket.id}/status`, 'technician', { status: 'waiting_customer' })).statusCode,
    ).toBe(200);
    mail = (await ctx.t.sentMail()).slice(before);
    expect(mail.map((m) => m.to)).toEqual(['user@example.com', 'user@example.com']);
    expect(mail[1].text).toContain('changed from Open to Waiting for your reply');

    // The customer's answer puts it back with staff (in_progress) and mails the assignee (not the customer).
    before = (await ctx.t.sentMail()).length;
    ctx.clock.advanceHours(2);
    expect(
      (await call('POST', `/tickets/${ticket.id}/replies`, 'user', { message: 'Restarted, still slow' })).statusCode,
    ).toBe(201);
    mail = (await ctx.t.sentMail()).slice(before);
    expect(mail.map((m) => m.to)).toEqual(['technician@example.com']);
    expect(mail[0].text).toContain('Restarted, still slow');
    detail = (await call('GET', `/tickets/${ticket.id}`, 'user')).json().data;
    expect(detail.status).toBe('in_progress');
    expect(detail.first_response_at).not.toBe(detail.last_reply_at); // the first response stays

    // Resolved, then a customer reply puts it back with staff and clears resolved_at.
    await call('PATCH', `/tickets/${ticket.id}/status`, 'technician', { status: 'resolved' });
    expect((await call('GET', `/tickets/${ticket.id}`, 'user')).json().data.resolved_at).toBe(
      ctx.clock.now().toISOString(),
    );
    await call('POST', `/tickets/${ticket.id}/replies`, 'user', { message: 'It came back' });
    detail = (await call('GET', `/tickets/${ticket.id}`, 'user')).json().data;
    expect(detail).toMatchObject({ status: 'in_progress', resolved_at: null });

    // Nobody replies to a closed ticket.
    await call('PATCH', `/tickets/${ticket.id}/status`, 'technician', { status: 'closed' });
    const late = await call('POST', `/tickets/${ticket.id}/replies`, 'user', { message: 'Hello?' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This ticket is closed');
  });

  it('applies the status transitions: staff move freely, closed is final except admin/support re-open, customers close or re-open resolved', async () => {
    const ticket = await open('user', { subject: 'Transitions', category: 'technical' });
    const setStatus = (who: Who, status: string) => call('PATCH', `/tickets/${ticket.id}/status`, who, { status });
    const statusNow = async () => (await call('GET', `/tickets/${ticket.id}`, 'admin')).json().data.status;

    // The customer may not move it into staff states.
    for (const s of ['in_progress', 'waiting_customer', 'resolved']) {
      const res = await setStatus('user', s);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(`Cannot change the ticket status from open to ${s}`);
    }
    expect((await setStatus('user', 'reopened')).statusCode).toBe(400);
    // Staff in scope move between the four states in any order.
    for (const [who, s] of [
      ['technician', 'in_progress'],
      ['technician', 'waiting_customer'],
      ['support', 'open'],
      ['technician', 'resolved'],
      ['tech2', 'in_progress'],
      ['admin', 'resolved'],
    ] as Array<[Who, string]>) {
      const res = await setStatus(who, s);
      expect([who, s, res.statusCode]).toEqual([who, s, 200]);
      expect(res.json().data.status).toBe(s);
    }
    // Billing staff do not see a technical ticket: 404, not 409.
    expect((await setStatus('billing', 'closed')).statusCode).toBe(404);
    // The customer re-opens a resolved ticket.
    expect((await setStatus('user', 'open')).statusCode).toBe(200);
    expect(await statusNow()).toBe('open');
    // Staff close it; closed is final for technicians and for the customer...
    expect((await setStatus('technician', 'closed')).statusCode).toBe(200);
    const closedAt = (await call('GET', `/tickets/${ticket.id}`, 'admin')).json().data.resolved_at;
    expect(closedAt).toBe(ctx.clock.now().toISOString()); // closing an unresolved ticket counts as resolving it
    for (const [who, s] of [
      ['technician', 'open'],
      ['technician', 'in_progress'],
      ['user', 'open'],
      ['admin', 'in_progress'],
    ] as Array<[Who, string]>) {
      const res = await setStatus(who, s);
      expect([who, res.statusCode, res.json().message]).toEqual([
        who,
        409,
        `Cannot change the ticket status from closed to ${s}`,
      ]);
    }
    // ...except for admin/support re-opening it.
    const reopened = await setStatus('support', 'open');
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().data).toMatchObject({ status: 'open', resolved_at: null });
    // The customer may close their own ticket.
    expect((await setStatus('user', 'closed')).statusCode).toBe(200);
    expect((await call('PATCH', `/tickets/${ticket.id}/status`, 'admin', { status: 'open' })).statusCode).toBe(200);
    // The same status again is no change (200, no e-mail).
    const before = (await ctx.t.sentMail()).length;
    expect((await setStatus('technician', 'open')).statusCode).toBe(200);
    expect((await ctx.t.sentMail()).length).toBe(before);
  });

  it('moves the status with public replies: staff answer → waiting on customer, customer answer → waiting on staff; an explicit change by staff wins', async () => {
    const ticket = await open('user', { subject: 'Replies move the status', category: 'technical' });
    const reply = (who: Who, message: string, extra: Record<string, unknown> = {}) =>
      call('POST', `/tickets/${ticket.id}/replies`, who, { message, ...extra });
    const statusNow = async () => (await call('GET', `/tickets/${ticket.id}`, 'admin')).json().data.status;

    // The customer adding to their own open ticket leaves it open.
    expect((await reply('user', 'Also the TV box')).statusCode).toBe(201);
    expect(await statusNow()).toBe('open');
    // An internal note changes nothing.
    expect((await reply('technician', 'Check the splitter', { is_internal: true })).statusCode).toBe(201);
    expect(await statusNow()).toBe('open');
    // Staff answering an open ticket: waiting on the customer.
    expect((await reply('technician', 'Which light is red?')).statusCode).toBe(201);
    expect(await statusNow()).toBe('waiting_customer');
    // The customer answering: back with staff.
    expect((await reply('user', 'The PON light')).statusCode).toBe(201);
    expect(await statusNow()).toBe('in_progress');
    // Staff answering an in_progress ticket: waiting on the customer again (any staff role on the ticket).
    expect((await reply('support', 'We are sending a technician')).statusCode).toBe(201);
    expect(await statusNow()).toBe('waiting_customer');
    // A staff reply to a waiting or resolved ticket leaves the status as staff set it.
    expect((await reply('admin', 'Booked for Tuesday')).statusCode).toBe(201);
    expect(await statusNow()).toBe('waiting_customer');
    // An explicit status change by staff after replying wins, and stays through the next staff reply.
    expect(
      (await call('PATCH', `/tickets/${ticket.id}/status`, 'technician', { status: 'resolved' })).json().data.status,
    ).toBe('resolved');
    expect((await reply('technician', 'Fixed on site')).statusCode).toBe(201);
    expect(await statusNow()).toBe('resolved');
    // The customer answering a resolved ticket: back with staff, resolved_at cleared.
    expect((await reply('user', 'It dropped again tonight')).statusCode).toBe(201);
    expect((await call('GET', `/tickets/${ticket.id}`, 'user')).json().data).toMatchObject({
      status: 'in_progress',
      resolved_at: null,
    });
  });

  it('lets the creator edit while open, staff in scope any time before closing', async () => {
    const ticket = await open('user', { subject: 'Typo in subjct', category: 'technical' });
    const edit = await call('PUT', `/tickets/${ticket.id}`, 'user', { subject: 'Typo in subject', priority: 'low' });
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({
      message: 'Ticket updated successfully',
      data: { subject: 'Typo in subject', priority: 'low', description: 'No light on the router.' },
    });
    expect((await call('PUT', `/tickets/${ticket.id}`, 'user', {})).statusCode).toBe(400);
    await call('PATCH', `/tickets/${ticket.id}/status`, 'technician', { status: 'in_progress' });
    const late = await call('PUT', `/tickets/${ticket.id}`, 'user', { subject: 'Changed my mind' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('A ticket can only be edited by its creator while it is open');
    expect(
      (
        await call('PUT', `/tickets/${ticket.id}`, 'technician', { category: 'installation', priority: 'urgent' })
      ).json().data,
    ).toMatchObject({
      category: 'installation',
      priority: 'urgent',
    });
    expect((await call('PUT', `/tickets/${ticket.id}`, 'other', { subject: 'Mine now' })).statusCode).toBe(404);
    expect((await call('PUT', `/tickets/${ticket.id}`, 'billing', { subject: 'Mine now' })).statusCode).toBe(404);
    await call('PATCH', `/tickets/${ticket.id}/status`, 'technician', { status: 'closed' });
    expect((await call('PUT', `/tickets/${ticket.id}`, 'admin', { priority: 'low' })).statusCode).toBe(409);
  });
});

describe('demo seed', () => {
  it('gives customer@isp.local three sample tickets, one answered by support (internal note hidden)', async () => {
    const t = await createTestApp();
    try {
      await seedDemoData(t.database.db);
      const customer = (await t.login('customer@isp.local', 'Password123!')).token;
      const list = (await t.app.inject({ method: 'GET', url: '/api/tickets', headers: bearer(customer) })).json().data;
      expect(list.items.map((x: { number: string; status: string }) => [x.number, x.status])).toEqual([
        ['T-000002', 'open'],
        ['T-000001', 'in_progress'],
        ['T-000003', 'resolved'],
      ]);
      const answered = list.items[1];
      const replies = (
        await t.app.inject({ method: 'GET', url: `/api/tickets/${answered.id}/replies`, headers: bearer(customer) })
      ).json().data;
      expect(replies.map((r: { author_role: string }) => r.author_role)).toEqual(['support', 'user']);
      const support = (await t.login('support@isp.local', 'Password123!')).token;
      const staffReplies = (
        await t.app.inject({ method: 'GET', url: `/api/tickets/${answered.id}/replies`, headers: bearer(support) })
      ).json().data;
      expect(staffReplies).toHaveLength(3);
      // New tickets continue the sequence.
      const next = await t.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: bearer(customer),
        payload: { subject: 'Another one', description: 'x' },
      });
      expect(next.json().data.number).toBe('T-000004');
    } finally {
      await t.close();
    }
  });
});
