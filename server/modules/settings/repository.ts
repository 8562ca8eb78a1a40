import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';

export function createSettingsRepository(db: Db) {
  return {
    async all(): Promise<Array<{ key: string; value: unknown; updatedAt: Date }>> {
      return db.select().from(settings);
    },

    /**
     * Writes every given key in one transaction. An entry with `merge` is laid over the value stored now
     * (read under a row lock, over `merge` as the defaults), not over a cached copy: the billing section
     * holds the invoice counter, which invoices advance concurrently under the same lock.
     */
    async upsert(entries: Array<{ key: string; value: unknown; merge?: Record<string, unknown> }>, now: Date): Promise<void> {
      if (!entries.length) return;
      await db.transaction(async (tx) => {
        for (const entry of entries) {
          const { key } = entry;
          let value = entry.value;
          if (entry.merge) {
            const [row] = await tx.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).for('update');
            const stored = row && row.value && typeof row.value === 'object' && !Array.isArray(row.value) ? (row.value as object) : {};
            value = { ...entry.merge, ...stored, ...(value as object) };
          }
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
