/**
 * The file store (app.storage) every module keeps its uploaded files in: the local disk under DATA_DIR, or the
 * S3-compatible bucket of S3_BUCKET (server/lib/storage/config.ts), so that with several nodes any node serves
 * a file uploaded through another. Closed (S3's connections released) when the app closes.
 */
import fp from 'fastify-plugin';
import { createFileStore, storageConfigOf, type FileStore, type StorageConfig } from '../lib/storage';

declare module 'fastify' {
  interface FastifyInstance {
    storage: FileStore;
  }
}

declare module '../config' {
  interface Config {
    /** The file store; absent: from the S3_* variables of the environment (storageConfigOf). Tests set it. */
    storage?: StorageConfig;
  }
}

export default fp(
  async (app) => {
    const log = app.log.child({ module: 'storage' });
    const store = createFileStore(storageConfigOf(app.config), app.config.dataDir, {
      warn: (message) => log.warn(message),
    });
    app.decorate('storage', store);
    log.debug({ kind: store.kind, location: store.location }, 'file store');
    app.addHook('onClose', () => store.close());
  },
  { name: 'storage', dependencies: ['db'] },
);
