/**
 * Issue 20: a resource declared once gets its menu item, its four pages and its role checks with no other file.
 * The fixture below exists only in this test: a role-matrix entry (registerResourceAccess) and a declaration
 * (registerResource) — nothing in src/, resources/ or providers/ names it. The back office is the real one:
 * the staff layout's menu, the route guard, Refine with the real data and access-control providers, and the
 * routes made by the same function that makes the shipped ones; only the API is a FakeApi.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntdApp } from 'antd';
import { BookOutlined } from '@ant-design/icons';
import { Refine } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { z } from 'zod';
import { registerResourceAccess, type Role } from '../../contract/roles';
import { accessControlProvider } from '../../providers/access-control-provider';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { createDataProvider } from '../../providers/data-provider';
import { createHttpClient } from '../../providers/http-client';
import { notificationProvider } from '../../providers/notification-provider';
import { refineResources } from '../../resources';
import { menuEntries } from '../../resources/menu';
import { registerResource, resourceEntries } from '../../resources/registry';
import { defineResource } from '../../src/components/resource/define';
import { addMessages } from '../../src/i18n';
import { RouteGuard } from '../../src/layout/RouteGuard';
import { StaffLayout } from '../../src/layout/StaffLayout';
import { resourceRoutes } from '../../src/routes';
import { FakeApi, ok, sampleUser } from '../providers/support/fake-api';
import { FIXTURE_NOTES_ACCESS } from '../helpers/fixture-resource';

const NAME = 'fixture-notes';
const BASE = `/dashboard/${NAME}`;
const noteInput = z.object({
  title: z.string().trim().min(3, { message: 'Title must be at least 3 characters' }).max(80),
  pinned: z.boolean().optional(),
});

const note = (over: Record<string, unknown> = {}) => ({
  id: '0b0f6c52-0000-4000-8000-000000000001',
  title: 'Router firmware',
  pinned: true,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  ...over,
});
const page = (items: unknown[]) =>
  ok({ items, pagination: { page: 1, totalPages: 1, total: items.length, hasNext: false, hasPrev: false } });

let removeAccess: () => void;
let removeResource: () => void;

beforeAll(() => {
  addMessages({
    'fixtureNotes.title': 'Fixture notes',
    'fixtureNotes.singular': 'Fixture note',
    'fixtureNotes.fields.title': 'Title',
    'fixtureNotes.fields.pinned': 'Pinned',
    'fixtureNotes.fields.createdAt': 'Created',
  });
  removeAccess = registerResourceAccess(NAME, FIXTURE_NOTES_ACCESS);
  removeResource = registerResource(
    defineResource({
      name: NAME,
      titleKey: 'fixtureNotes.title',
      singularKey: 'fixtureNotes.singular',
      menu: { order: 65, icon: BookOutlined },
      fields: [
        {
          name: 'title',
          type: 'text',
          labelKey: 'fixtureNotes.fields.title',
          column: true,
          priority: 1,
          form: true,
          schema: noteInput.shape.title,
        },
        {
          name: 'pinned',
          type: 'boolean',
          labelKey: 'fixtureNotes.fields.pinned',
          column: true,
          form: true,
          defaultValue: false,
        },
        { name: 'created_at', type: 'date', labelKey: 'fixtureNotes.fields.createdAt', column: true },
      ],
    }),
  );
});
afterAll(() => {
  removeResource();
  removeAccess();
});
afterEach(() => {
  cleanup();
  resetAuthState();
});

let path = '';
function Where() {
  path = useLocation().pathname;
  return null;
}

function signIn(role: Role) {
  setAuthState({ user: { ...sampleUser, role }, isAuthenticated: true, isLoading: false, isRefreshing: false });
}

/** The back office with the fixture's routes (made like every resource's) and a stand-in home page. */
async function renderBackOffice(api: FakeApi, at: string) {
  const http = createHttpClient({ adapter: api.adapter, navigate: () => undefined });
  const fixture = resourceEntries().filter((e) => e.decl.name === NAME);
  render(
    <MemoryRouter initialEntries={[at]}>
      <AntdApp>
        <Refine
          routerProvider={routerProvider}
          dataProvider={createDataProvider(http)}
          notificationProvider={notificationProvider}
          accessControlProvider={accessControlProvider}
          resources={refineResources()}
          options={{
            disableTelemetry: true,
            syncWithLocation: true,
            warnWhenUnsavedChanges: false,
            reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false } } } },
          }}
        >
          <Where />
          <Routes>
            <Route element={<RouteGuard />}>
              <Route element={<StaffLayout />}>
                {resourceRoutes(fixture)}
                <Route path="/dashboard" element={<p>Home page</p>} />
              </Route>
            </Route>
          </Routes>
        </Refine>
      </AntdApp>
    </MemoryRouter>,
  );
  // The layout's first render does not know the width yet; it settles on the phone layout (jsdom has no width).
  await screen.findByTestId('menu-button');
}

/** The staff menu's link to the fixture (jsdom has no width, so the menu is the phone drawer: opened first). */
async function menuLink(): Promise<HTMLElement | null> {
  fireEvent.click(screen.getByTestId('menu-button'));
  const menu = await screen.findByTestId('staff-menu');
  return within(menu).queryByRole('link', { name: 'Fixture notes' });
}

describe('a resource declared once (fixture, never shipped)', () => {
  it('derives its menu entry and its four routes from the declaration and the matrix entry alone', () => {
    const entry = menuEntries().find((m) => m.name === NAME);
    expect(entry).toEqual({
      name: NAME,
      route: BASE,
      show: `${BASE}/show/:id`,
      create: `${BASE}/create`,
      edit: `${BASE}/edit/:id`,
      labelKey: 'fixtureNotes.title',
    });
    expect(refineResources().find((r) => r.name === NAME)).toMatchObject({ list: BASE, create: `${BASE}/create` });
  });

  it('admin: the menu item, the list from the API, create, show and edit', async () => {
    signIn('admin');
    const created = note({ id: '0b0f6c52-0000-4000-8000-000000000002', title: 'Spare ONTs', pinned: false });
    const api = new FakeApi()
      .on('GET /fixture-notes', page([note()]))
      .on('POST /fixture-notes', ok(created, 'Fixture note created successfully'))
      .on(`GET /fixture-notes/${note().id}`, ok(note()))
      .on(`PUT /fixture-notes/${note().id}`, (call) =>
        ok({ ...note(), ...(call.body as object) }, 'Fixture note updated successfully'),
      );
    await renderBackOffice(api, BASE);

    expect(await screen.findByText('Router firmware')).toBeTruthy();
    // The writer's row offers edit and delete (the reader's, below, neither).
    const adminRow = screen.getByText('Router firmware').closest('tr')!;
    expect(await within(adminRow).findByRole('button', { name: 'Delete Fixture note' })).toBeTruthy();
    expect(within(adminRow).getByRole('button', { name: 'Edit Fixture note' })).toBeTruthy();
    expect((await menuLink())?.getAttribute('href')).toBe(BASE);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(api.last('GET /fixture-notes')?.params).toMatchObject({ page: '1', limit: '10' });

    // Create: the generated form validates with the declared schema before anything is sent.
    fireEvent.click(await screen.findByRole('button', { name: /create/i }));
    await waitFor(() => expect(path).toBe(`${BASE}/create`));
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'ab' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    // The rule's message comes from the declared schema's check; on a loaded CI machine it once took over 5 s.
    expect(await screen.findByText('Title must be at least 3 characters', {}, { timeout: 15_000 })).toBeTruthy();
    expect(api.count('POST /fixture-notes')).toBe(0);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Spare ONTs' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() =>
      expect(api.calls.map((c) => `${c.method} ${c.path}`).join(', ')).toContain('post /fixture-notes'),
    );
    expect(api.last('POST /fixture-notes')!.body).toEqual({ title: 'Spare ONTs', pinned: false });
    cleanup();

    // Show and edit pages at their derived paths.
    await renderBackOffice(api, `${BASE}/show/${note().id}`);
    const details = await screen.findByText('Router firmware');
    expect(details).toBeTruthy();
    expect(await screen.findByRole('button', { name: /delete/i })).toBeTruthy();
    expect(screen.getByRole('button', { name: /edit/i })).toBeTruthy();
    cleanup();
    await renderBackOffice(api, `${BASE}/edit/${note().id}`);
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Router firmware'));
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Router firmware 7.16' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() =>
      expect(api.calls.map((c) => `${c.method} ${c.path}`)).toContain(`put /fixture-notes/${note().id}`),
    );
    expect(api.last(`PUT /fixture-notes/${note().id}`)!.body).toMatchObject({ title: 'Router firmware 7.16' });
  }, 60_000);

  it('support (read only in its entry): the list and a record without Create, Edit or Delete, and its create route says it is not theirs', async () => {
    signIn('support');
    const api = new FakeApi()
      .on('GET /fixture-notes', page([note()]))
      .on(`GET /fixture-notes/${note().id}`, ok(note()));
    await renderBackOffice(api, BASE);
    expect(await screen.findByText('Router firmware')).toBeTruthy();
    const row = screen.getByText('Router firmware').closest('tr')!;
    // The row's Show button waits for the same access answers as its Edit and Delete.
    expect(await within(row).findByRole('button', { name: 'Show Fixture note' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /edit/i })).toBeNull();
    // Issue 35: the reader was offered Delete (its access followed the list screen) and got 403.
    expect(within(row).queryByRole('button', { name: /delete/i })).toBeNull();
    expect(await menuLink()).not.toBeNull();
    expect(screen.queryByRole('button', { name: /create/i })).toBeNull();
    cleanup();
    await renderBackOffice(api, `${BASE}/show/${note().id}`);
    expect(await screen.findByText('Router firmware')).toBeTruthy();
    expect(await screen.findByRole('button', { name: /refresh/i })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /edit/i })).toBeNull();
    expect(screen.queryByRole('button', { name: /delete/i })).toBeNull();
    cleanup();
    await renderBackOffice(api, `${BASE}/create`);
    // Issue 34: the no-access screen, where they asked to go (no silent redirect).
    expect(await screen.findByRole('heading', { level: 1, name: "You don't have access to this page" })).toBeTruthy();
    expect(path).toBe(`${BASE}/create`);
  });

  it('technician (outside its access): neither the menu item nor the routes', async () => {
    signIn('technician');
    const api = new FakeApi().on('GET /fixture-notes', page([note()]));
    await renderBackOffice(api, BASE);
    expect(await screen.findByRole('heading', { level: 1, name: "You don't have access to this page" })).toBeTruthy();
    expect(path).toBe(BASE);
    expect(await menuLink()).toBeNull();
    expect(within(screen.getByTestId('staff-menu')).queryAllByRole('link').length).toBeGreaterThan(0);
    expect(api.count('GET /fixture-notes')).toBe(0);
  });

  it('is gone from the menu once removed', () => {
    expect(menuEntries().some((m) => m.name === NAME)).toBe(true);
    removeResource();
    expect(menuEntries().some((m) => m.name === NAME)).toBe(false);
    expect(refineResources().some((r) => r.name === NAME)).toBe(false);
  });
});
