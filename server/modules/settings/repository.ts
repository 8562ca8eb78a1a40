import type { Db } from '../../db/client';
import { settings } from '../../db/schema';

export function createSettingsRepository(db: Db) {
  return {
    async all(): Promise<Array<{ key: string; value: unknown; updatedAt: Date }>> {
      return db.select().from(settings);
    },

    /** Writes every given key in one transaction. */
    async upsert(entries: Array<{ key: string; value: unknown }>, now: Date): Promise<void> {
      if (!entries.length) return;
      await db.transaction(async (tx) => {
        for (const { key, value } of entries) {
          await tx
            .insert(settings)
            .values({ key, value, updatedAt: now })
            .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } });
        }
      });
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
