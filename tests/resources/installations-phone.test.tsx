/**
 * The technician's day on a phone (issue 19): the list's order (today's jobs in time order, overdue ones with
 * them, then upcoming, then finished), the sections on screen, a status change that waits for its
 * confirmation, the photo inputs that open the camera, and the resize helper's arithmetic and pass-through.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import type { Installation } from '../../contract/schemas/installation';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { planDay } from '../../resources/installations/day';
import { InstallationDetail } from '../../resources/installations/InstallationDetail';
import { InstallationsPage } from '../../resources/installations/InstallationsPage';
import { mapsUrl, telUrl } from '../../resources/installations/ui';
import { fitWithin, jpegName, resizeImage } from '../../src/components/resizeImage';
import { FakeApi, ok, sampleUser } from '../providers/support/fake-api';
import { renderScreen } from './support/render';

const NOW = dayjs().hour(12).minute(0).second(0).millisecond(0);
let n = 0;
const job = (over: Partial<Installation> = {}): Installation => {
  n += 1;
  return {
    id: `66666666-6666-4666-8666-${String(n).padStart(12, '0')}`,
    number: `I-${String(n).padStart(6, '0')}`,
    subscription_id: '22222222-2222-4222-8222-222222222222',
    subscription_status: 'pending',
    plan_name: 'Fiber 100',
    user_id: sampleUser.id,
    customer_name: `Customer ${n}`,
    customer_email: 'c@example.com',
    address: '12 Elm Street, Springfield',
    contact_phone: '+1 (555) 010-0',
    preferred_date: null,
    scheduled_start: NOW.toISOString(),
    scheduled_end: NOW.add(1, 'hour').toISOString(),
    technician_id: '55555555-5555-4555-8555-555555555555',
    technician_name: 'Tom Tech',
    status: 'scheduled',
    checklist: [],
    notes: null,
    equipment: [],
    readings: {},
    failure_reason: null,
    completed_at: null,
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
    ...over,
  };
};
const at = (d: dayjs.Dayjs) => ({ scheduled_start: d.toISOString(), scheduled_end: d.add(1, 'hour').toISOString() });
const page = (items: unknown[]) =>
  ok({ items, pagination: { page: 1, totalPages: 1, total: items.length, hasNext: false, hasPrev: false } });
const routes = [
  { path: '/dashboard/installations', element: <InstallationsPage /> },
  { path: '/dashboard/installation/:id', element: <InstallationDetail /> },
];

afterEach(() => {
  cleanup();
  resetAuthState();
});

describe('the technician’s day', () => {
  const afternoon = job({ ...at(NOW.hour(15)), customer_name: 'Afternoon' });
  const morning = job({
    ...at(NOW.hour(8)),
    status: 'completed',
    completed_at: NOW.hour(9).toISOString(),
    customer_name: 'Morning (done)',
  });
  const overdue = job({ ...at(NOW.subtract(1, 'day').hour(10)), customer_name: 'Yesterday, not done' });
  const noon = job({ ...at(NOW), status: 'en_route', customer_name: 'Noon' });
  const nextWeek = job({ ...at(NOW.add(7, 'day')), customer_name: 'Next week' });
  const tomorrow = job({ ...at(NOW.add(1, 'day').hour(9)), customer_name: 'Tomorrow' });
  const unscheduled = job({
    scheduled_start: null,
    scheduled_end: null,
    status: 'requested',
    preferred_date: NOW.add(2, 'day').format('YYYY-MM-DD'),
    customer_name: 'No slot yet',
  });
  const doneLastWeek = job({
    ...at(NOW.subtract(7, 'day')),
    status: 'completed',
    completed_at: NOW.subtract(7, 'day').toISOString(),
    customer_name: 'Done last week',
  });
  const failedYesterday = job({
    ...at(NOW.subtract(1, 'day')),
    status: 'failed',
    failure_reason: 'No access',
    customer_name: 'Failed yesterday',
  });
  const all = [nextWeek, doneLastWeek, afternoon, unscheduled, morning, failedYesterday, tomorrow, overdue, noon];

  it('puts today’s jobs first in time order (overdue ones with them), then the upcoming ones, then the finished ones', () => {
    const plan = planDay([...all, noon], NOW); // a job in both reads counts once
    const names = (list: Installation[]) => list.map((j) => j.customer_name);
    expect(names(plan.today)).toEqual(['Yesterday, not done', 'Morning (done)', 'Noon', 'Afternoon']);
    expect(names(plan.upcoming)).toEqual(['Tomorrow', 'Next week', 'No slot yet']);
    expect(names(plan.finished)).toEqual(['Failed yesterday', 'Done last week']);
  });

  it('shows the sections in that order, as cards, reading open jobs and the recent finished ones', async () => {
    setAuthState({ user: { ...sampleUser, role: 'technician' } as never, isAuthenticated: true, isLoading: false });
    const api = new FakeApi().on('GET /installations', (c) =>
      c.params.upcoming
        ? page([afternoon, morning, overdue, noon, nextWeek, tomorrow, unscheduled])
        : page([doneLastWeek, failedYesterday, overdue, morning]),
    );
    renderScreen(api, '/dashboard/installations', routes);
    await screen.findByTestId('jobs-today');
    await waitFor(() => expect(screen.getByTestId('jobs-finished')).toBeTruthy());
    const sections = screen.getAllByTestId(/^jobs-/).map((s) => s.dataset.testid);
    expect(sections).toEqual(['jobs-today', 'jobs-upcoming', 'jobs-finished']);
    const cards = (section: string) =>
      within(screen.getByTestId(section))
        .getAllByTestId('job-card')
        .map((c) => c.dataset.job);
    expect(cards('jobs-today')).toEqual([overdue.number, morning.number, noon.number, afternoon.number]);
    expect(cards('jobs-upcoming')).toEqual([tomorrow.number, nextWeek.number, unscheduled.number]);
    expect(cards('jobs-finished')).toEqual([failedYesterday.number, doneLastWeek.number]);
    // The overdue job says so; today's show their times only.
    const overdueCard = within(screen.getByTestId('jobs-today')).getAllByTestId('job-card')[0];
    expect(within(overdueCard).getByText('Overdue')).toBeTruthy();
    const noonCard = within(screen.getByTestId('jobs-today')).getAllByTestId('job-card')[2];
    expect(within(noonCard).getByTestId('job-time').textContent).toBe(
      `${NOW.format('h:mm A')}–${NOW.add(1, 'hour').format('h:mm A')}`,
    );
    const tel = within(noonCard).getByRole('link', { name: 'Call +1 (555) 010-0' });
    expect(tel.getAttribute('href')).toBe('tel:+15550100');
    const maps = within(noonCard).getByRole('link', { name: 'Open 12 Elm Street, Springfield in maps' });
    expect(maps.getAttribute('href')).toBe(
      'https://www.google.com/maps/search/?api=1&query=12%20Elm%20Street%2C%20Springfield',
    );
    expect(maps.getAttribute('target')).toBe('_blank');
    expect(maps.getAttribute('rel')).toContain('noopener');
  });

  it('asks before changing the status, and “Not now” sends nothing', async () => {
    setAuthState({ user: { ...sampleUser, role: 'technician' } as never, isAuthenticated: true, isLoading: false });
    const detail = { ...job({ status: 'in_progress' }), photos: [], next_statuses: ['completed', 'failed'] };
    const api = new FakeApi()
      .on(`GET /installations/${detail.id}`, ok(detail))
      .on(`PATCH /installations/${detail.id}/status`, ok({ ...detail, status: 'completed', next_statuses: [] }));
    renderScreen(api, `/dashboard/installation/${detail.id}`, routes);
    const actions = await screen.findByTestId('status-actions');
    // The step forward first, then giving up.
    expect(
      within(actions)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Complete installation', 'Mark failed']);
    fireEvent.click(within(actions).getByRole('button', { name: 'Complete installation' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(`Change ${detail.number} to “Completed”?`)).toBeTruthy();
    expect(
      within(dialog).getByText('Complete this installation? The customer’s PPPoE login is created now.'),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not now' }));
    await new Promise((r) => setTimeout(r, 200));
    expect(api.count(`PATCH /installations/${detail.id}/status`)).toBe(0);
    fireEvent.click(within(actions).getByRole('button', { name: 'Complete installation' }));
    dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Complete installation' }));
    await waitFor(() =>
      expect(api.last(`PATCH /installations/${detail.id}/status`)?.body).toEqual({ status: 'completed' }),
    );
  });

  it('offers the camera (back camera, images only) and the gallery for photos, each input labelled', async () => {
    setAuthState({ user: { ...sampleUser, role: 'technician' } as never, isAuthenticated: true, isLoading: false });
    const detail = { ...job({ status: 'in_progress' }), photos: [], next_statuses: [] };
    renderScreen(
      new FakeApi().on(`GET /installations/${detail.id}`, ok(detail)),
      `/dashboard/installation/${detail.id}`,
      routes,
    );
    const camera = (await screen.findByLabelText('Take photo')) as HTMLInputElement;
    expect(camera.type).toBe('file');
    expect(camera.accept).toBe('image/*');
    expect(camera.getAttribute('capture')).toBe('environment');
    const gallery = screen.getByLabelText('Choose photos') as HTMLInputElement;
    expect(gallery.accept).toBe('image/*');
    expect(gallery.multiple).toBe(true);
    expect(gallery.hasAttribute('capture')).toBe(false);
    expect(screen.getByRole('button', { name: 'Take photo' })).toBeTruthy();
  });
});

describe('links and resizing', () => {
  it('dials the number without its spaces and brackets, and searches the address in maps', () => {
    expect(telUrl('+44 20 7946 0958')).toBe('tel:+442079460958');
    expect(telUrl('(555) 010-0199')).toBe('tel:5550100199');
    expect(mapsUrl('Flat 2, 7 Meadow Road & Co')).toBe(
      'https://www.google.com/maps/search/?api=1&query=Flat%202%2C%207%20Meadow%20Road%20%26%20Co',
    );
  });

  it('fits the longer side within 1600 px keeping the aspect ratio, and leaves small images alone', () => {
    expect(fitWithin(3000, 2000)).toEqual({ width: 1600, height: 1067 });
    expect(fitWithin(2000, 4000)).toEqual({ width: 800, height: 1600 });
    expect(fitWithin(1600, 1200)).toBeNull();
    expect(fitWithin(640, 480)).toBeNull();
  });

  it('names the JPEG after the original', () => {
    expect(jpegName('IMG_0042.HEIC')).toBe('IMG_0042.jpg');
    expect(jpegName('site.photo.png')).toBe('site.photo.jpg');
    expect(jpegName('camera')).toBe('camera.jpg');
  });

  it('passes non-images and GIFs through untouched', async () => {
    const log = new File(['router log'], 'router.log', { type: 'text/plain' });
    const gif = new File(['GIF89a'], 'spinner.gif', { type: 'image/gif' });
    expect(await resizeImage(log)).toBe(log);
    expect(await resizeImage(gif)).toBe(gif);
  });
});
