/**
 * A new subscription with a location gets its installation job: called by the subscriptions work inside its
 * create transaction (kept apart from service.ts so the two modules do not import each other).
 */
import { eq } from 'drizzle-orm';
import { DEFAULT_INSTALLATION_CHECKLIST } from '../../../contract/schemas/installation';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { installations, type InstallationRow } from '../../db/schema/installations';

export const defaultChecklist = () => DEFAULT_INSTALLATION_CHECKLIST.map((item) => ({ item, done: false }));

/** The job (requested) at the subscription's location, with the customer's phone. */
export async function requestInstallation(tx: Db, input: { subscriptionId: string; userId: string; address: string; now: Date }): Promise<InstallationRow> {
  const [user] = await tx.select({ phone: users.phone }).from(users).where(eq(users.id, input.userId)).limit(1);
  const [row] = await tx
    .insert(installations)
    .values({
      subscriptionId: input.subscriptionId,
      userId: input.userId,
      address: input.address,
      contactPhone: user?.phone ?? null,
      status: 'requested',
      checklist: defaultChecklist(),
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning();
  return row;
}
