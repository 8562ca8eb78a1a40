/**
 * Uploaded files (ticket attachments, installation photos): type detection from the bytes (never the name),
 * file-name sanitising, staging an upload to a temporary file while checking it, receiving a multipart upload
 * with its limits (413/415/400, nothing left behind), putting the checked files into the file store (app.storage:
 * the local disk or S3) under <area>/<owner id>/<random>, and sending a stored file back with safe headers.
 * Staging is always on the local disk, in DATA_DIR/<area>/.incoming (on the local store the final move is a
 * rename); what a stopped process left there is swept at start. Only a fully checked file reaches the store.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError, badRequest, notFound } from './errors';
import type { FileStore } from './storage';

export const STORED_NAME = /^[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The types the sniffer recognises. */
export type SniffedType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'application/pdf' | 'text/plain';

/** Where an area's uploads stage on the local disk: DATA_DIR/<area>/.incoming ("tickets", "installations"). */
export const incomingDir = (dataDir: string, area: string) => join(dataDir, area, '.incoming');

/** The store's folder of one owner's files: "<area>/<owner id>/" (on the local disk DATA_DIR/<area>/<owner id>). */
export function ownerPrefix(area: string, ownerId: string): string {
  if (!UUID.test(ownerId)) throw new Error('invalid owner id');
  return `${area}/${ownerId.toLowerCase()}/`;
}

/** The store's key of one stored file: "<area>/<owner id>/<random name>". */
export function storedKey(area: string, ownerId: string, storedName: string): string {
  if (!STORED_NAME.test(storedName)) throw new Error('invalid stored name');
  return ownerPrefix(area, ownerId) + storedName;
}

export const randomStoredName = () => randomBytes(16).toString('hex');

/** The type of a file from its first bytes (PNG, JPEG, GIF, WebP, PDF), or null. */
export function sniffBinaryType(head: Buffer): SniffedType | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 6 && ['GIF87a', 'GIF89a'].includes(head.toString('latin1', 0, 6))) return 'image/gif';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  if (head.length >= 5 && head.toString('latin1', 0, 5) === '%PDF-') return 'application/pdf';
  return null;
}

const MAX_NAME = 200;
// C0/C1 controls and the bidirectional overrides that can disguise an extension ("gpj.exe").
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A file name safe to keep as metadata and to offer on download: the last path segment only (no folders, no
 * "../"), control and direction characters removed, no leading dots, at most 200 characters (keeping the
 * extension). Never used as a path on disk.
 */
export function sanitizeFileName(name: string | undefined | null): string {
  let n = String(name ?? '')
    .normalize('NFC')
    .replace(UNSAFE_CHARS, '');
  n = n.split(/[\\/]/).pop() ?? '';
  n = n
    .trim()
    .replace(/^[.\s]+/, '')
    .trim();
  const chars = Array.from(n);
  if (chars.length > MAX_NAME) {
    const dot = n.lastIndexOf('.');
    const ext = dot > 0 ? Array.from(n.slice(dot)) : [];
    n =
      ext.length > 0 && ext.length <= 20
        ? chars.slice(0, MAX_NAME - ext.length).join('') + ext.join('')
        : chars.slice(0, MAX_NAME).join('');
  }
  return n || 'file';
}

/** Content-Disposition for a download: an ASCII fallback and the exact name in RFC 5987 form. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export interface StagedFile {
  tempPath: string;
  storedName: string;
  originalName: string;
  size: number;
  /** null when the bytes are none of the accepted types. */
  contentType: SniffedType | null;
  /** More bytes were sent than the limit allows (the stream was cut). */
  tooLarge: boolean;
}

/**
 * Writes an upload stream to a temporary file, inspecting it on the way: its size, its first bytes, and
 * whether it is valid UTF-8 text without NUL bytes (the only way a text or log file is accepted).
 */
export async function stageUpload(
  dataDir: string,
  area: string,
  file: Readable & { truncated?: boolean },
  originalName: string | undefined,
  maxBytes: number,
): Promise<StagedFile> {
  await mkdir(incomingDir(dataDir, area), { recursive: true });
  const storedName = randomStoredName();
  const tempPath = join(incomingDir(dataDir, area), storedName);
  let size = 0;
  let head = Buffer.alloc(0);
  let text = true;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const inspect = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (head.length < 16) head = Buffer.concat([head, chunk.subarray(0, 16 - head.length)]);
      if (text) {
        if (chunk.includes(0)) text = false;
        else {
          try {
            decoder.decode(chunk, { stream: true });
          } catch {
            text = false;
          }
        }
      }
      callback(null, chunk);
    },
  });
  try {
    await pipeline(file, inspect, createWriteStream(tempPath, { mode: 0o600 }));
  } catch (error) {
    await unlink(tempPath).catch(() => {});
    throw error;
  }
  if (text) {
    try {
      decoder.decode();
    } catch {
      text = false; // ends in the middle of a character
    }
  }
  const tooLarge = Boolean(file.truncated) || size > maxBytes;
  const contentType = sniffBinaryType(head) ?? (text && size > 0 ? 'text/plain' : null);
  return { tempPath, storedName, originalName: sanitizeFileName(originalName), size, contentType, tooLarge };
}

/** How old a staged file must be before a start-up sweep removes it: no upload takes this long. */
export const STALE_INCOMING_MS = 60 * 60_000;

/**
 * Removes the staged files of an area older than `olderThanMs`: what a process that stopped in the middle of
 * an upload left behind (a running upload elsewhere is younger). Returns how many were removed.
 */
export async function sweepIncoming(
  dataDir: string,
  area: string,
  olderThanMs = STALE_INCOMING_MS,
  now = Date.now(),
): Promise<number> {
  const dir = incomingDir(dataDir, area);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile() || now - info.mtimeMs < olderThanMs) continue;
    await unlink(path).then(
      () => removed++,
      () => {},
    );
  }
  return removed;
}

/** Sweeps an area's staged uploads left behind (sweepIncoming) once the app is ready, logging what it removed. */
export function sweepIncomingOnReady(app: FastifyInstance, area: string): void {
  app.addHook('onReady', async () => {
    const removed = await sweepIncoming(app.config.dataDir, area).catch((err: unknown) => {
      app.log.warn({ err, area }, 'could not sweep uploads left behind');
      return 0;
    });
    if (removed) app.log.info({ removed, area }, 'removed uploads left behind by an interrupted upload');
  });
}

export async function discard(staged: readonly StagedFile[]): Promise<void> {
  await Promise.all(staged.map((s) => unlink(s.tempPath).catch(() => {})));
}

/** Puts checked files into the store under the owner's folder; on failure takes back the ones already put. */
export async function commitFiles(
  store: FileStore,
  area: string,
  ownerId: string,
  staged: readonly StagedFile[],
): Promise<void> {
  const put: string[] = [];
  try {
    for (const s of staged) {
      const key = storedKey(area, ownerId, s.storedName);
      await store.putFile(key, s.tempPath, { contentType: s.contentType ?? 'application/octet-stream', size: s.size });
      put.push(key);
    }
  } catch (error) {
    await Promise.all(put.map((key) => store.delete(key).catch(() => {})));
    throw error;
  }
}

/**
 * Puts checked files into the store, then records them with `record` (a database transaction); if the put
 * fails the staged files are discarded, if the recording fails the stored files are removed: either every file
 * is stored and recorded, or none is.
 */
export async function storeUploads<T>(
  store: FileStore,
  area: string,
  ownerId: string,
  staged: readonly StagedFile[],
  record: () => Promise<T>,
): Promise<T> {
  try {
    await commitFiles(store, area, ownerId, staged);
  } catch (error) {
    await discard(staged);
    throw error;
  }
  try {
    return await record();
  } catch (error) {
    await removeStored(
      store,
      area,
      ownerId,
      staged.map((s) => s.storedName),
    );
    throw error;
  }
}

/** The columns every stored-file row has, from the staged files (in the order they were sent). */
export function storedFileRows(staged: readonly StagedFile[], uploadedBy: string, createdAt: Date) {
  return staged.map((s) => ({
    originalName: s.originalName,
    size: s.size,
    contentType: s.contentType!,
    storedName: s.storedName,
    uploadedBy,
    createdAt,
  }));
}

export async function removeStored(
  store: FileStore,
  area: string,
  ownerId: string,
  storedNames: readonly string[],
): Promise<void> {
  await Promise.all(storedNames.map((n) => store.delete(storedKey(area, ownerId, n)).catch(() => {})));
}

/** Removes every stored file of an owner (a deleted ticket or installation). */
export async function removeOwnerFiles(store: FileStore, area: string, ownerId: string): Promise<void> {
  await store.deletePrefix(ownerPrefix(area, ownerId));
}

/** One file part of a multipart upload (what @fastify/multipart hands over). */
export interface UploadPart {
  type: 'file' | 'field';
  fieldname: string;
  filename?: string;
  file?: NodeJS.ReadableStream & { truncated?: boolean; resume(): unknown };
}

export interface UploadRules {
  maxBytes: number;
  maxFiles: number;
  /** Accepted content types (from the bytes). */
  accept: readonly SniffedType[];
  messages: { tooLarge: string; tooMany: string; unsupported: string; emptyFile: string; noFile: string };
}

/** The upload messages for one kind of file: the limits and the allowed types named as the user reads them. */
export function uploadMessages(limits: {
  maxBytes: number;
  maxFiles: number;
  allowed: string;
  what: string;
}): UploadRules['messages'] {
  return {
    tooLarge: `File is too large (max ${limits.maxBytes / 1024 / 1024} MB)`,
    tooMany: `Too many files (max ${limits.maxFiles} per upload)`,
    unsupported: `Unsupported file type (allowed: ${limits.allowed})`,
    emptyFile: 'The file is empty',
    noFile: `Send the ${limits.what} in the multipart field "files"`,
  };
}

const hasCode = (error: unknown, code: string) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === code;

/**
 * Stages every file part sent in the multipart field "files" (or "file") and checks it: too large or too many
 * 413, a type not accepted 415, empty or none 400. On any failure every staged file is removed again, so
 * nothing is left behind; on success the caller commits them (commitFiles) or discards them.
 */
export async function receiveUploads(
  dataDir: string,
  area: string,
  parts: AsyncIterable<UploadPart>,
  rules: UploadRules,
): Promise<StagedFile[]> {
  const M = rules.messages;
  const staged: StagedFile[] = [];
  try {
    for await (const part of parts) {
      if (part.type !== 'file' || !part.file) continue;
      if (part.fieldname !== 'files' && part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      if (staged.length >= rules.maxFiles) throw new AppError(413, M.tooMany);
      const file = await stageUpload(dataDir, area, part.file as never, part.filename, rules.maxBytes);
      staged.push(file);
      if (file.tooLarge) throw new AppError(413, M.tooLarge);
      if (file.size === 0) throw badRequest(M.emptyFile, [{ field: 'files', message: M.emptyFile }]);
      if (!file.contentType || !rules.accept.includes(file.contentType)) throw new AppError(415, M.unsupported);
    }
    if (!staged.length) throw badRequest(M.noFile, [{ field: 'files', message: M.noFile }]);
  } catch (error) {
    await discard(staged);
    if (hasCode(error, 'FST_REQ_FILE_TOO_LARGE')) throw new AppError(413, M.tooLarge);
    if (hasCode(error, 'FST_FILES_LIMIT')) throw new AppError(413, M.tooMany);
    if (hasCode(error, 'FST_PARTS_LIMIT') || hasCode(error, 'FST_FIELDS_LIMIT')) throw new AppError(413, M.tooMany);
    throw error;
  }
  return staged;
}

/** A stored file as a service hands it to its download route: where it is and what the database knows of it. */
export interface StoredFileRef {
  key: string;
  name: string;
  contentType: string;
  size: number;
}

/**
 * Sends a stored file from the store as a download that a browser never runs or sniffs (type, length and name
 * from the database row, whichever backend holds the bytes); 404 with `missing` when the store has no object.
 */
export async function sendStoredFile(reply: FastifyReply, store: FileStore, file: StoredFileRef, missing: string) {
  const object = await store.get(file.key);
  if (!object) throw notFound(missing);
  return reply
    .type(file.contentType === 'text/plain' ? 'text/plain; charset=utf-8' : file.contentType)
    .header('content-length', String(file.size))
    .header('content-disposition', contentDisposition(file.name))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store')
    .send(object.stream);
}
