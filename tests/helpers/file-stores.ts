/**
 * The two file stores the upload tests run against (describe.each(STORE_KINDS)): the local disk under a fresh
 * DATA_DIR, or a local S3 server (tests/helpers/s3.ts) with a fresh DATA_DIR for staging. What a store holds
 * is looked at directly (the folder on disk, or the bucket through the SDK), not through the portal's code.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { Config } from '../../server/config';
import { startS3Server, type S3TestServer } from './s3';

export const STORE_KINDS = ['local', 's3'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

export interface TestFileStore {
  kind: StoreKind;
  /** The app's DATA_DIR (uploads stage in DATA_DIR/<area>/.incoming with either store). */
  dataDir: string;
  /** createTestApp's config: this DATA_DIR and, for S3, the bucket. */
  config: Partial<Config>;
  /** The S3 server (null for the local disk). */
  s3: S3TestServer | null;
  /** The files directly in a folder of the store ("tickets/<id>"): DATA_DIR/<folder> on disk, the bucket's <folder>/ objects. */
  files(folder: string): Promise<Array<{ name: string; size: number }>>;
  close(): Promise<void>;
}

export async function createTestFileStore(kind: StoreKind, name = 'files'): Promise<TestFileStore> {
  const dataDir = await mkdtemp(join(tmpdir(), `isp-${name}-${kind}-`));
  const s3 = kind === 's3' ? await startS3Server() : null;
  return {
    kind,
    dataDir,
    s3,
    config: s3 ? { dataDir, storage: s3.storage } : { dataDir },
    async files(folder) {
      if (s3) {
        const prefix = `${s3.prefix}${folder}/`;
        const page = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
        return (page.Contents ?? [])
          .map((o) => ({ name: o.Key!.slice(prefix.length), size: o.Size ?? 0 }))
          .filter((f) => !f.name.includes('/'));
      }
      const dir = join(dataDir, folder);
      if (!existsSync(dir)) return [];
      const out = [];
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (entry.isFile()) out.push({ name: entry.name, size: (await stat(join(dir, entry.name))).size });
      }
      return out;
    },
    async close() {
      await s3?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
