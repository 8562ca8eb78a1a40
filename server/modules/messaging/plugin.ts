/** `app.notifier`: how any module tells a customer something on the channels they chose (issue 38, ./types.ts). */
import fp from 'fastify-plugin';
import { MessageNotifier } from './notifier';
import type { Notifier } from './types';

declare module 'fastify' {
  interface FastifyInstance {
    notifier: Notifier;
  }
}

export default fp(
  async (app) => {
    app.decorate(
      'notifier',
      new MessageNotifier({
        db: app.db,
        clock: app.clock,
        log: app.log.child({ module: 'messaging' }),
        defaultLanguage: async () => (await app.settings.stored()).languages.default,
        sendMail: (message) => app.mail.send(message),
      }),
    );
  },
  { name: 'messaging', dependencies: ['settings', 'mail'] },
);
