/**
 * The staff incidents screen (issue 38), generated from its declaration: the poller's outages and staff's windows
 * listed with their kind, area and times; Resolve on an open one asks the server once and is gone on a resolved one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { FakeApi, ok } from '../providers/support/fake-api';
import { renderScreen } from './support/render';
import { resourcePage } from '../../src/routes';

const IncidentList = resourcePage('incidents', 'list');
const OPEN = '11111111-1111-4111-8111-111111111111';
const DONE = '22222222-2222-4222-8222-222222222222';
const incident = (over: Record<string, unknown>) => ({
  id: OPEN,
  kind: 'outage',
  source: 'poller',
  title: 'Service interruption in North Hill',
  description: null,
  area: 'North Hill',
  device_id: '33333333-3333-4333-8333-333333333333',
  interface_name: null,
  starts_at: '2026-11-10T11:05:00.000Z',
  ends_at: null,
  resolved_at: null,
  created_at: '2026-11-10T11:05:00.000Z',
  updated_at: '2026-11-10T11:05:00.000Z',
  ...over,
});
const page = (items: unknown[]) =>
  ok({ items, pagination: { page: 1, totalPages: 1, total: items.length, hasNext: false, hasPrev: false } });

afterEach(cleanup);

describe('outages and maintenance (generic list with the incidents declaration)', () => {
  it('lists both kinds and resolves an open one', async () => {
    const api = new FakeApi()
      .on(
        'GET /incidents',
        page([
          incident({}),
          incident({
            id: DONE,
            kind: 'maintenance',
            source: 'staff',
            title: 'Fibre splicing on River Road',
            area: 'Riverside',
            device_id: null,
            ends_at: '2026-11-10T15:00:00.000Z',
            resolved_at: '2026-11-10T15:00:00.000Z',
          }),
        ]),
      )
      .on(
        `POST /incidents/${OPEN}/resolve`,
        ok(incident({ resolved_at: '2026-11-10T12:00:00.000Z' }), 'Incident resolved'),
      );
    renderScreen(api, '/dashboard/incidents', [{ path: '/dashboard/incidents', element: <IncidentList /> }]);

    // The declaration's pages load with the first of them: more than the default second on a busy machine.
    expect(await screen.findByText('Service interruption in North Hill', {}, { timeout: 8000 })).toBeTruthy();
    expect(screen.getByText('Fibre splicing on River Road')).toBeTruthy();
    expect(screen.getAllByText('Outage').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Maintenance').length).toBeGreaterThan(0);
    // Only the open incident can be resolved.
    const resolve = screen.getAllByRole('button', { name: /Resolve/ });
    expect(resolve).toHaveLength(1);
    fireEvent.click(resolve[0]);
    await waitFor(() => expect(api.count(`POST /incidents/${OPEN}/resolve`)).toBe(1));
  });
});
