/** The plans' queries beyond the CRUD factory's (module.ts): the hooks' own. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { plans } from '../../db/schema';

export function createPlanRepository(db: Db) {
  return {
    /** Whether a plan already has this slug. */
    async slugTaken(slug: string): Promise<boolean> {
      return (await db.select({ id: plans.id }).from(plans).where(eq(plans.slug, slug)).limit(1)).length > 0;
    },
  };
}
