import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { Db } from '../db/client';
import { createSecretBox, type SecretBox } from '../lib/secret-box';
import { createSettingsRepository } from '../modules/settings/repository';
import { SettingsService } from '../modules/settings/service';

declare module 'fastify' {
  interface FastifyInstance {
    settings: SettingsService;
    secretBox: SecretBox;
  }
}

/** Site settings (cached, changed through PUT /api/settings) for every module: mail, SPA, plans, contact. */
export default fp(
  async (app) => {
    const box = createSecretBox(app.config.secretsKey);
    app.decorate('secretBox', box);
    app.decorate(
      'settings',
      new SettingsService({
        repository: createSettingsRepository(app.db),
        clock: app.clock,
        box,
        uploadsDir: join(app.config.dataDir, 'uploads'),
        transaction: (work) => app.db.transaction((tx) => work(createSettingsRepository(tx as unknown as Db), tx as unknown as Db)),
      }),
    );
  },
  { name: 'settings', dependencies: ['db'] },
);
