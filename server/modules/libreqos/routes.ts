/**
 * /api/exports/libreqos (issue 36): LibreQoS's ShapedDevices.csv and network.json as downloads, for the staff who
 * manage the network (role matrix: contract/roles.ts). The CSV is streamed page by page; see service.ts.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NETWORK_FILE, SHAPED_DEVICES_FILE } from './service';

export const libreqosRoutes: FastifyPluginAsyncZod = async (app) => {
  const { service } = app.libreqos;

  app.get('/shaped-devices.csv', async (_request, reply) => {
    const topology = await service.topology();
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${SHAPED_DEVICES_FILE}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(service.shapedDevicesCsv(topology)));
  });

  app.get('/network.json', async (_request, reply) => {
    const tree = await service.networkJson();
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${NETWORK_FILE}"`)
      .header('cache-control', 'no-store')
      .send(`${JSON.stringify(tree, null, 2)}\n`);
  });
};
