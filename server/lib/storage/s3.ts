/**
 * The S3-compatible FileStore (AWS S3, MinIO, Ceph, R2, s3rver...): the object "a/b/c" is the key
 * S3_PREFIX + "a/b/c" in S3_BUCKET. Every node configured with the same bucket serves every file.
 */
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { checkKey, checkPrefix, type FileStore, type StoredEntry, type StoredObject } from './file-store';
import type { S3Settings } from './config';

type SdkError = { name?: string; $metadata?: { httpStatusCode?: number } };

const notFound = (error: unknown) => {
  const e = error as SdkError;
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/** No answer at all (connection refused or reset), a timeout, throttling or a server error: worth another try. */
const retryable = (error: unknown) => {
  const status = (error as SdkError).$metadata?.httpStatusCode;
  return status === undefined || status === 408 || status === 429 || status >= 500;
};

/** Tries of one putFile: the SDK retries most requests itself, but never one whose body is a stream. */
const PUT_FILE_ATTEMPTS = 3;

/** Where the SDK's warnings go (its per-request info and error records are left out: callers see the errors). */
export interface StorageLog {
  warn(message: string): void;
}

export function createS3Client(settings: S3Settings, log?: StorageLog): S3Client {
  const quiet = () => {};
  return new S3Client({
    logger: {
      trace: quiet,
      debug: quiet,
      info: quiet,
      error: quiet,
      warn: (...args: unknown[]) => log?.warn(args.map(String).join(' ')),
    },
    region: settings.region,
    endpoint: settings.endpoint ?? undefined,
    forcePathStyle: settings.forcePathStyle,
    // Without keys, the SDK's own chain (AWS_* variables, an instance or task role).
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    // The SDK's default checksums send a streamed body in aws-chunked framing with a trailer, which several
    // S3-compatible servers store as is (s3rver kept 3,000,449 bytes of a 3,000,000-byte file): only where an
    // operation requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function createS3Store(
  settings: S3Settings,
  log?: StorageLog,
  client: S3Client = createS3Client(settings, log),
): FileStore {
  const { bucket, prefix: root } = settings;
  const keyOf = (key: string) => root + checkKey(key);

  async function put(key: string, body: Buffer | Readable, options: { contentType: string; size: number }) {
    // A PUT either stores the whole object or none: nothing half written to clean up.
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: keyOf(key),
        Body: body,
        ContentLength: options.size,
        ContentType: options.contentType,
      }),
    );
  }

  async function list(prefix: string): Promise<StoredEntry[]> {
    const out: StoredEntry[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: root + checkPrefix(prefix), ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) {
        if (o.Key)
          out.push({ key: o.Key.slice(root.length), size: o.Size ?? 0, modifiedAt: o.LastModified ?? new Date(0) });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  return {
    kind: 's3',
    location: `s3://${bucket}/${root}`,
    put,

    async putFile(key, path, options) {
      for (let attempt = 1; ; attempt++) {
        try {
          await put(key, createReadStream(path), options);
          break;
        } catch (error) {
          if (attempt >= PUT_FILE_ATTEMPTS || !retryable(error)) throw error;
          await sleep(100 * 2 ** attempt);
        }
      }
      await unlink(path).catch(() => {});
    },

    async get(key): Promise<StoredObject | null> {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
        return {
          stream: object.Body as Readable,
          size: Number(object.ContentLength ?? 0),
          contentType: object.ContentType ?? null,
        };
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },

    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
        return true;
      } catch (error) {
        if (notFound(error)) return false;
        throw error;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
    },

    async deletePrefix(prefix) {
      const keys = (await list(prefix)).map((e) => root + e.key);
      for (let i = 0; i < keys.length; i += 1000) {
        const { Errors } = await client.send(
          new DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
          }),
        );
        if (Errors?.length)
          throw new Error(
            `could not delete ${Errors.length} object(s) under ${prefix}: ${Errors[0].Code} ${Errors[0].Message ?? ''}`.trim(),
          );
      }
    },

    list,

    async close() {
      client.destroy();
    },
  };
}
