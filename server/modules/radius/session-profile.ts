/**
 * The NAS profile a live session is changed and checked with (issue 36, verified changes): its registered
 * device's vendor profile (nas-profiles.ts); a session whose device is gone gets the default (MikroTik's, what
 * every NAS got before the profiles).
 */
import type { RadiusSessionRow } from '../../db/schema/radius';
import type { NasClientDirectory } from './clients';
import { DEFAULT_NAS_PROFILE, type NasProfile } from './nas-profiles';

/** The profile of the NAS a session runs on. */
export function profileForSession(
  session: Pick<RadiusSessionRow, 'nasDeviceId'>,
  clients: Pick<NasClientDirectory, 'device'>,
): NasProfile {
  const client = session.nasDeviceId ? clients.device(session.nasDeviceId) : undefined;
  return client?.profile ?? DEFAULT_NAS_PROFILE;
}
