import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';

export function createSettingsRepository(db: Db) {
  return {
    async all(): Promise<Array<{ key: string; value: unknown; updatedAt: Date }>> {
      return db.select().from(settings);
    },

    /**
     * Writes every given key in one transaction and answers each key's value before and after (before:
     * undefined when the key was not stored). Every row is read under a row lock, so what is written and the
     * `before` it is compared with (the audit diff) are the same row. An entry with `merge` is laid over the
     * value stored now (over `merge` as the defaults), not over a cached copy: the billing section holds the
     * invoice counter, which invoices advance concurrently under the same lock.
     */
    async upsert(
      entries: Array<{ key: string; value: unknown; merge?: Record<string, unknown> }>,
      now: Date,
    ): Promise<Array<{ key: string; before: unknown; after: unknown }>> {
      if (!entries.length) return [];
      return db.transaction(async (tx) => {
        const written: Array<{ key: string; before: unknown; after: unknown }> = [];
        for (const entry of entries) {
          const { key } = entry;
          const [row] = await tx
            .select({ value: settings.value })
            .from(settings)
            .where(eq(settings.key, key))
            .for('update');
          let value = entry.value;
          if (entry.merge) {
            const stored =
              row?.value && typeof row.value === 'object' && !Array.isArray(row.value) ? (row.value as object) : {};
            value = { ...entry.merge, ...stored, ...(value as object) };
          }
          await tx
            .insert(settings)
            .values({ key, value, updatedAt: now })
            .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } });
          written.push({ key, before: row ? row.value : undefined, after: value });
        }
        return written;
      });
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
