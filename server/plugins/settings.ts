import fp from 'fastify-plugin';
import type { Db } from '../db/client';
import { RESYNC } from '../lib/change-bus';
import { createSecretBox, type SecretBox } from '../lib/secret-box';
import { createSettingsRepository } from '../modules/settings/repository';
import { SettingsService } from '../modules/settings/service';

/** The change-bus topic of a settings change. */
export const SETTINGS_CHANGED = 'settings';

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
    const settings = new SettingsService({
      repository: createSettingsRepository(app.db),
      clock: app.clock,
      box,
      store: app.storage,
      transaction: (work) =>
        app.db.transaction((tx) => work(createSettingsRepository(tx as unknown as Db), tx as unknown as Db)),
      // A change made through any process is served by every process from its next request on.
      publish: () => void app.changes.publish(SETTINGS_CHANGED),
    });
    app.changes.subscribe(SETTINGS_CHANGED, () => settings.changed());
    app.changes.subscribe(RESYNC, () => settings.changed());
    app.decorate('settings', settings);
  },
  { name: 'settings', dependencies: ['db', 'changes', 'storage'] },
);
