/**
 * A new subscription with a location gets its installation job: called by the subscriptions work inside its
 * create transaction (kept apart from service.ts so the two modules do not import each other).
 */
import { DEFAULT_INSTALLATION_CHECKLIST } from '../../../contract/schemas/installation';
import type { Db } from '../../db/client';
import type { InstallationRow } from '../../db/schema/installations';
import { createInstallationRepository } from './repository';

export const defaultChecklist = () => DEFAULT_INSTALLATION_CHECKLIST.map((item) => ({ item, done: false }));

/** The job (requested) at the subscription's location, with the customer's phone. */
export async function requestInstallation(
  tx: Db,
  input: { subscriptionId: string; userId: string; address: string; now: Date },
): Promise<InstallationRow> {
  const repository = createInstallationRepository(tx);
  const user = await repository.customerContact(tx, input.userId);
  return repository.insert(tx, {
    subscriptionId: input.subscriptionId,
    userId: input.userId,
    address: input.address,
    contactPhone: user?.phone ?? null,
    status: 'requested',
    checklist: defaultChecklist(),
    createdAt: input.now,
    updatedAt: input.now,
  });
}
