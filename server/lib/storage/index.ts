/** The file store the configuration asks for: S3 when S3_BUCKET is set (see config.ts), else the local disk. */
import { loadStorageConfig, type StorageConfig } from './config';
import type { FileStore } from './file-store';
import { createLocalStore } from './local';
import { createS3Store, type StorageLog } from './s3';

export function createFileStore(config: StorageConfig, dataDir: string, log?: StorageLog): FileStore {
  return config.kind === 's3' ? createS3Store(config, log) : createLocalStore(dataDir);
}

/** The storage a portal configuration asks for: the one set on it (tests), else the S3_* variables of the environment. */
export function storageConfigOf(config: { storage?: StorageConfig }): StorageConfig {
  return config.storage ?? loadStorageConfig(process.env);
}

export { loadStorageConfig, type S3Settings, type StorageConfig } from './config';
export { checkKey, readAll, type FileStore, type StoredObject } from './file-store';
export { createLocalStore } from './local';
export { createS3Client, createS3Store, type StorageLog } from './s3';
