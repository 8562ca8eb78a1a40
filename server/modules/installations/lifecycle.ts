/**
 * The installation lifecycle: one table of allowed status changes and who may make them. Anything not listed
 * is refused with 409 naming both states (like the subscription lifecycle).
 *   by 'staff':      admin, super_admin, support (they schedule, reschedule and cancel jobs)
 *   by 'technician': the technician assigned to the job (they travel, work and finish it)
 */
import type { InstallationStatus } from '../../../contract/schemas/installation';
import { conflict } from '../../lib/errors';

export type InstallationActor = 'staff' | 'technician';

export const transitionMessage = (from: string, to: string) => `Cannot change an installation from ${from} to ${to}`;

export const INSTALLATION_TRANSITIONS: ReadonlyArray<{
  from: InstallationStatus;
  to: InstallationStatus;
  by: readonly InstallationActor[];
}> = [
  { from: 'requested', to: 'scheduled', by: ['staff'] },
  { from: 'requested', to: 'cancelled', by: ['staff'] },
  { from: 'scheduled', to: 'en_route', by: ['staff', 'technician'] },
  { from: 'scheduled', to: 'in_progress', by: ['staff', 'technician'] },
  { from: 'scheduled', to: 'requested', by: ['staff'] },
  { from: 'scheduled', to: 'failed', by: ['staff', 'technician'] },
  { from: 'scheduled', to: 'cancelled', by: ['staff'] },
  { from: 'en_route', to: 'in_progress', by: ['staff', 'technician'] },
  { from: 'en_route', to: 'failed', by: ['staff', 'technician'] },
  { from: 'en_route', to: 'cancelled', by: ['staff'] },
  { from: 'in_progress', to: 'completed', by: ['staff', 'technician'] },
  { from: 'in_progress', to: 'failed', by: ['staff', 'technician'] },
  // A failed visit is rescheduled (a new slot) or given up.
  { from: 'failed', to: 'scheduled', by: ['staff'] },
  { from: 'failed', to: 'cancelled', by: ['staff'] },
];

export function canTransition(from: InstallationStatus, to: InstallationStatus, by: InstallationActor): boolean {
  return INSTALLATION_TRANSITIONS.some((t) => t.from === from && t.to === to && t.by.includes(by));
}

export function assertTransition(from: InstallationStatus, to: InstallationStatus, by: InstallationActor): void {
  if (!canTransition(from, to, by)) throw conflict(transitionMessage(from, to));
}

export function nextStatuses(from: InstallationStatus, by: InstallationActor): InstallationStatus[] {
  return INSTALLATION_TRANSITIONS.filter((t) => t.from === from && t.by.includes(by)).map((t) => t.to);
}
