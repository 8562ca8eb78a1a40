/**
 * Where the portal keeps uploaded files, read from the environment (validated like server/config.ts; kept here
 * so the storage stays self-contained):
 *   S3_BUCKET             Store files in this S3-compatible bucket. Unset: the local disk under DATA_DIR.
 *   S3_ENDPOINT           The service's URL for MinIO, Ceph, R2, s3rver...; unset: AWS S3 of S3_REGION.
 *   S3_REGION             Default us-east-1.
 *   S3_ACCESS_KEY_ID      With S3_SECRET_ACCESS_KEY (both or neither: neither uses the AWS SDK's own chain:
 *   S3_SECRET_ACCESS_KEY  AWS_* variables, an instance or task role).
 *   S3_FORCE_PATH_STYLE   http://host/bucket/key instead of http://bucket.host/key: true | false. Default true
 *                         when S3_ENDPOINT is set (what MinIO and most self-hosted services need), else false.
 *   S3_PREFIX             Put every key under this folder of the bucket (e.g. "portal/"), to share a bucket.
 * Any S3_* variable without S3_BUCKET is refused rather than silently storing files on the local disk.
 */
import { z } from 'zod';
import { bool, ConfigError } from '../../config';

export interface S3Settings {
  bucket: string;
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  forcePathStyle: boolean;
  /** '' or a folder ending with "/". */
  prefix: string;
}

export type StorageConfig = { kind: 'local' } | ({ kind: 's3' } & S3Settings);

export const S3_VARIABLES = [
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'S3_PREFIX',
] as const;

const text = z.string().trim().min(1);
const schema = z.object({
  // A bucket's name, not a URL or a path (old AWS buckets may hold capitals and "_", so those pass too).
  S3_BUCKET: text
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,253}[A-Za-z0-9]$/, {
      message: 'S3_BUCKET must be a bucket name (letters, digits, ".", "_" and "-"), not a URL or a path',
    })
    .optional(),
  S3_ENDPOINT: text
    .refine((v) => /^https?:\/\//.test(v) && URL.canParse(v), {
      message: 'S3_ENDPOINT must be an http:// or https:// URL',
    })
    .optional(),
  S3_REGION: text.regex(/^[a-z0-9-]+$/, { message: 'S3_REGION must be a region name such as us-east-1' }).optional(),
  S3_ACCESS_KEY_ID: text.optional(),
  S3_SECRET_ACCESS_KEY: text.optional(),
  S3_FORCE_PATH_STYLE: bool('S3_FORCE_PATH_STYLE').optional(),
  S3_PREFIX: z
    .string()
    .trim()
    .transform((v) => v.replace(/^\/+|\/+$/g, ''))
    .refine((v) => v === '' || v.split('/').every((s) => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(s)), {
      message: 'S3_PREFIX must be folder names of letters, digits, ".", "_" and "-" separated by "/"',
    })
    .optional(),
});

/** The storage the environment asks for; ConfigError naming every problem (e.g. a half-set S3 configuration). */
export function loadStorageConfig(env: NodeJS.ProcessEnv = process.env): StorageConfig {
  // An empty variable counts as unset (as a compose file's "S3_ENDPOINT=" would mean).
  const given = Object.fromEntries(S3_VARIABLES.filter((name) => env[name]?.trim()).map((name) => [name, env[name]]));
  const parsed = schema.safeParse(given);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message));
  const e = parsed.data;
  const problems: string[] = [];
  if (!e.S3_BUCKET) {
    const stray = Object.keys(given);
    if (stray.length)
      problems.push(
        `${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set but S3_BUCKET is not: set S3_BUCKET to keep files in S3, or unset the S3_* variables to keep them in DATA_DIR`,
      );
  } else if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    problems.push(
      `${e.S3_ACCESS_KEY_ID ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY'} is set without ${e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'}: set both, or neither to use the AWS SDK's own credentials`,
    );
  }
  if (problems.length) throw new ConfigError(problems);
  if (!e.S3_BUCKET) return { kind: 'local' };
  return {
    kind: 's3',
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT ?? null,
    region: e.S3_REGION ?? 'us-east-1',
    accessKeyId: e.S3_ACCESS_KEY_ID ?? null,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? null,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
    prefix: e.S3_PREFIX ? `${e.S3_PREFIX}/` : '',
  };
}
