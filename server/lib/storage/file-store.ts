/**
 * One place for the files the portal keeps (ticket attachments, installation photos, the company logo): a
 * FileStore holds objects under keys such as "tickets/<ticket id>/<random name>". Two backends: the local disk
 * under DATA_DIR (the default, the key is the path below DATA_DIR) and an S3-compatible bucket (S3_BUCKET), which
 * every node of a cluster reads and writes alike. Uploads are received and checked elsewhere (stored-files.ts);
 * only a checked file reaches a store.
 */
import type { Readable } from 'node:stream';

export interface PutOptions {
  contentType: string;
  /** Bytes in the body (S3 needs the length of a streamed body up front). */
  size: number;
}

export interface StoredObject {
  stream: Readable;
  size: number;
  /** As given to put; null where the backend keeps none (the local disk). */
  contentType: string | null;
}

export interface StoredEntry {
  key: string;
  size: number;
  modifiedAt: Date;
}

export interface FileStore {
  readonly kind: 'local' | 's3';
  /** Where the objects are, for logs and messages: a folder or s3://bucket/prefix. */
  readonly location: string;
  /** Stores bytes under key (replacing an object of that key); a failed put leaves no object behind. */
  put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void>;
  /**
   * Moves a local file in under key: the local disk renames it, S3 uploads it. Once this resolves the file is
   * no longer at `path`; if it rejects, the file may still be there and is the caller's to remove.
   */
  putFile(key: string, path: string, options: PutOptions): Promise<void>;
  /** The object, or null when there is none. The caller reads (or destroys) the stream. */
  get(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  /** Removes an object; one that is not there is no error. */
  delete(key: string): Promise<void>;
  /** Removes every object under a folder-like prefix ("tickets/<id>/"). */
  deletePrefix(prefix: string): Promise<void>;
  /** The objects under a folder-like prefix, by key. */
  list(prefix: string): Promise<StoredEntry[]>;
  /** Releases connections (S3); the local disk has nothing to release. */
  close(): Promise<void>;
}

/** One segment of a key: letters, digits, "_", "-", "." but never leading with "." (no "..", no hidden names). */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** A key the stores accept: segments joined by "/" (so it is also a safe relative path on any disk). */
export function checkKey(key: string): string {
  const segments = key.split('/');
  if (!segments.length || segments.length > 8 || !segments.every((s) => SEGMENT.test(s)))
    throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  return key;
}

/** A folder-like prefix the stores accept: one or more key segments and a trailing "/". */
export function checkPrefix(prefix: string): string {
  if (!prefix.endsWith('/')) throw new Error(`invalid storage prefix (must end with "/"): ${JSON.stringify(prefix)}`);
  checkKey(prefix.slice(0, -1));
  return prefix;
}

/** Reads a (small) stored object whole. */
export async function readAll(object: StoredObject): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of object.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
