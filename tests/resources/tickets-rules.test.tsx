import { describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import type { TicketCategory, TicketStatus } from '../../contract/schemas/ticket';
import { attachmentProblem, humanizeSeconds, nextStatuses } from '../../resources/tickets/rules';

const ME = 'me';
const viewer = (role: Role) => ({ id: ME, role });
const ticket = (
  status: TicketStatus,
  over: { category?: TicketCategory; assigned_to?: string | null; created_by?: string } = {},
) => ({
  status,
  category: over.category ?? 'technical',
  assigned_to: over.assigned_to ?? null,
  created_by: over.created_by ?? 'someone',
});

describe('allowed next statuses (mirror of the server rule)', () => {
  it('staff on the ticket move between the open states and to closed', () => {
    expect(nextStatuses(viewer('support'), ticket('open'))).toEqual([
      'in_progress',
      'waiting_customer',
      'resolved',
      'closed',
    ]);
    expect(nextStatuses(viewer('technician'), ticket('waiting_customer'))).toEqual([
      'open',
      'in_progress',
      'resolved',
      'closed',
    ]);
    expect(nextStatuses(viewer('billing'), ticket('resolved', { category: 'billing' }))).toEqual([
      'open',
      'in_progress',
      'waiting_customer',
      'closed',
    ]);
  });

  it('closed is final except that admin, super_admin and support re-open', () => {
    for (const role of ['admin', 'super_admin', 'support'] as const)
      expect(nextStatuses(viewer(role), ticket('closed'))).toEqual(['open']);
    expect(nextStatuses(viewer('technician'), ticket('closed'))).toEqual([]);
  });

  it('staff outside their queue act only as assignee (else nothing); the creator closes or re-opens a resolved one', () => {
    expect(nextStatuses(viewer('billing'), ticket('open', { category: 'technical' }))).toEqual([]);
    expect(nextStatuses(viewer('billing'), ticket('open', { category: 'technical', assigned_to: ME }))).toEqual([
      'in_progress',
      'waiting_customer',
      'resolved',
      'closed',
    ]);
    expect(nextStatuses(viewer('user'), ticket('open', { created_by: ME }))).toEqual(['closed']);
    expect(nextStatuses(viewer('user'), ticket('resolved', { created_by: ME }))).toEqual(['open', 'closed']);
    expect(nextStatuses(viewer('user'), ticket('closed', { created_by: ME }))).toEqual([]);
    expect(nextStatuses(viewer('user'), ticket('open'))).toEqual([]);
  });
});

describe('attachment limits', () => {
  it('refuses more than 5 files, a file over 10 MB and an empty file', () => {
    const f = (name: string, size: number) => ({ name, size });
    expect(attachmentProblem([f('a', 1), f('b', 10 * 1024 * 1024)])).toBeNull();
    expect(attachmentProblem([f('a', 10 * 1024 * 1024 + 1)])).toBe('“a” is too large (max 10 MB per file)');
    expect(attachmentProblem([1, 2, 3, 4, 5, 6].map((n) => f(String(n), 1)))).toBe('At most 5 files per upload');
    expect(attachmentProblem([f('z', 0)])).toBe('“z” is empty');
  });
});

describe('humanised durations', () => {
  it('reads seconds as minutes, hours and days', () => {
    expect(humanizeSeconds(null)).toBe('—');
    expect(humanizeSeconds(30)).toBe('< 1 min');
    expect(humanizeSeconds(12 * 60)).toBe('12 min');
    expect(humanizeSeconds(3600)).toBe('1 h');
    expect(humanizeSeconds(23_400)).toBe('6 h 30 min');
    expect(humanizeSeconds(2 * 86_400 + 3 * 3600 + 59)).toBe('2 d 3 h');
  });
});
