/**
 * The LibreQoS shaper export's shared parts (issue 36): one service for the downloads and the scheduled export, and
 * (when LIBREQOS_EXPORT_DIR is set) the "libreqos-export" job every LIBREQOS_EXPORT_INTERVAL_MINUTES that writes
 * ShapedDevices.csv and network.json into that folder. The folder is this node's disk (or a share): the job's queue
 * is defined only on the nodes that have the folder set, so only they run it, and each period is written once.
 */
import fp from 'fastify-plugin';
import { type LibreqosConfig, loadLibreqosConfig } from './config';
import { LibreqosExportService } from './service';

export const LIBREQOS_EXPORT_JOB = 'libreqos-export';

declare module 'fastify' {
  interface FastifyInstance {
    libreqos: { service: LibreqosExportService; config: LibreqosConfig };
  }
}

export default fp(
  async (app) => {
    const config = loadLibreqosConfig(process.env);
    const log = app.log.child({ module: 'libreqos' });
    const service = new LibreqosExportService({ db: app.db, clock: app.clock, embedded: app.dbKind === 'pglite' });
    app.decorate('libreqos', { service, config });
    const dir = config.exportDir;
    if (dir) {
      app.jobs.every(LIBREQOS_EXPORT_JOB, config.intervalMinutes * 60, {}, async () => {
        const written = await service.writeFiles(dir);
        log.info(written, 'LibreQoS files written');
        return written;
      });
    }
  },
  { name: 'libreqos', dependencies: ['db', 'jobs'] },
);
