/**
 * A real, local S3 server for tests: s3rver on 127.0.0.1 (a free port) over a temporary folder, with one bucket.
 * `env` holds every S3_* variable a portal process needs to use it (for a server started as a child process);
 * `storage` is the same as a parsed configuration, for createTestApp({ config: { storage } }). s3rver accepts any
 * credentials; the defaults are its own (S3RVER / S3RVER).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { createS3Client, loadStorageConfig, type S3Settings, type StorageConfig } from '../../server/lib/storage';

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** S3_PREFIX when one was asked for (with its trailing "/"), else ''. */
  prefix: string;
  /** S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE (and S3_PREFIX). */
  env: Record<string, string>;
  /** `env` parsed (loadStorageConfig): the storage of a test app built in this process. */
  storage: StorageConfig & { kind: 's3' };
  /** An SDK client of the server, for looking at the bucket directly. */
  client: S3Client;
  /** The bucket's keys under a prefix (the whole key, S3_PREFIX included), sorted. */
  keys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startS3Server(options: { bucket?: string; prefix?: string } = {}): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'isp-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  let client: S3Client | undefined;
  try {
    const { port } = await server.run();
    const endpoint = `http://127.0.0.1:${port}`;
    const bucket = options.bucket ?? 'isp-portal-test';
    const env: Record<string, string> = {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      ...(options.prefix ? { S3_PREFIX: options.prefix } : {}),
    };
    const storage = loadStorageConfig(env) as S3TestServer['storage'];
    const c = createS3Client(storage as S3Settings);
    client = c;
    await c.send(new CreateBucketCommand({ Bucket: bucket }));
    return {
      endpoint,
      bucket,
      region: storage.region,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      prefix: storage.prefix,
      env,
      storage,
      client: c,
      async keys(prefix = '') {
        const keys: string[] = [];
        let token: string | undefined;
        do {
          const page = await c.send(
            new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
          );
          keys.push(...(page.Contents ?? []).map((o) => o.Key!));
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
        return keys.sort();
      },
      async close() {
        c.destroy();
        const closing = server.close();
        server.httpServer?.closeAllConnections();
        await closing;
        await rm(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    client?.destroy();
    await server.close().catch(() => {});
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}
