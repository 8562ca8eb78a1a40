/**
 * The RADIUS server as part of the app (config.radiusEnabled): listens on RADIUS_HOST:RADIUS_AUTH_PORT and
 * :RADIUS_ACCT_PORT once the app is ready (itself, or through RADIUS_WORKERS worker processes with PostgreSQL),
 * sweeps stale sessions and due cut-off checks every 15 s, and stops on close.
 * `app.radius.accessChanged(subscriptionId, 'status' | 'plan')` is what the subscriptions and billing modules
 * call after a committed change; it does nothing when RADIUS is off.
 */
import { eq } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { plans, subscriptions, users } from '../../db/schema';
import { languageOf } from '../../i18n';
import { usageNoticeMail } from './emails';
import { RESYNC } from '../../lib/change-bus';
import { RadiusUdpServer } from '../../integrations/radius/server';
import type { RouterOsClient } from '../../integrations/routeros/client';
import type { AccountingStore } from './accounting';
import type { NasClient, NasClientDirectory } from './clients';
import { createRadiusCore } from './core';
import { onCredentialsChanged, registerCredentialsBox } from './credentials';
import type { AccessChange, CutoffService } from './cutoff';
import type { SubscriberDirectory } from './directory';
import type { RadiusService } from './service';
import type { UsageMeter } from './usage';
import { RadiusWorkerPool } from './workers';

export interface RadiusRuntime {
  enabled: boolean;
  subscribers: SubscriberDirectory;
  clients: NasClientDirectory;
  accounting: AccountingStore;
  usage: UsageMeter;
  cutoff: CutoffService;
  service: RadiusService;
  /** The in-process UDP server (null when off or when worker processes answer). */
  server: RadiusUdpServer<NasClient> | null;
  /** The bound ports (null while not listening). */
  ports(): { authPort: number; acctPort: number } | null;
  /** After a committed status or plan change: disconnect or re-rate the subscription's live sessions. */
  accessChanged(subscriptionId: string, change: AccessChange): void;
  /** After a plan was edited (speeds, cap): every login is re-read (live sessions keep their rate until they reconnect). */
  plansChanged(): void;
  /** After a device was added, changed or removed: the NAS client list is read again. */
  clientsChanged(): void;
  /**
   * Closes stale sessions, disconnects the sessions whose CoA went unconfirmed and runs the due cut-off checks (on
   * the app clock); the job queue calls it every 15 s, once across the nodes.
   */
  sweep(): Promise<{ stale: number; unconfirmed: number }>;
  /** Resolves when the cut-off work and directory reloads handed over so far are done. */
  idle(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    radius: RadiusRuntime;
  }
}

export interface RadiusPluginOptions {
  /** How the cut-off fallback reaches a device's RouterOS API (tests point it elsewhere). */
  routerOs?: (client: NasClient) => RouterOsClient | null;
  /** Seconds after a Disconnect-Request by which the session must have ended. Default 30. */
  verifyAfterSeconds?: number;
}

const SWEEP_EVERY_MS = 15_000;
/** The stale-session sweep and due disconnect checks: a periodic job, once across the nodes every 15 s. */
export const RADIUS_SWEEP_JOB = 'radius-sweep';

/** Change-bus topics: a subscription's access ({id}), the plans (every login), the NAS list. */
export const RADIUS_SUBSCRIPTION_CHANGED = 'radius.subscription';
export const RADIUS_PLANS_CHANGED = 'radius.plans';
export const RADIUS_CLIENTS_CHANGED = 'radius.clients';

export default fp<RadiusPluginOptions>(
  async (app, opts) => {
    const { config, db, clock } = app;
    const log = app.log.child({ module: 'radius' });
    registerCredentialsBox(app.secretBox);
    const core = createRadiusCore({
      db,
      clock,
      box: app.secretBox,
      config,
      log,
      routerOs: opts.routerOs,
      verifyAfterSeconds: opts.verifyAfterSeconds,
      attempts: app.rateLimitBackend,
    });
    const { subscribers, clients, accounting, cutoff, dynauth, service } = core;
    const useWorkers = config.radiusEnabled && config.radiusWorkers > 1 && config.databaseUrl !== null;
    if (config.radiusEnabled && config.radiusWorkers > 1 && !useWorkers) {
      log.warn(
        { workers: config.radiusWorkers },
        'RADIUS_WORKERS needs PostgreSQL (DATABASE_URL): RADIUS answers in the app process',
      );
    }
    const server = config.radiusEnabled && !useWorkers ? new RadiusUdpServer<NasClient>(service) : null;
    const pool = useWorkers
      ? new RadiusWorkerPool({
          count: config.radiusWorkers,
          log,
          observe: (type, result, seconds) => service.observe?.(type, result, seconds),
          coaOutcome: (result) => cutoff.onCoaOutcome?.(result),
          accessChanged: (subscriptionId) => {
            void app.changes.publish(RADIUS_SUBSCRIPTION_CHANGED, { id: subscriptionId });
            reloadOne(subscriptionId);
          },
          usageNotice: (notice) => void service.usageNotice?.(notice),
          settings: {
            databaseUrl: config.databaseUrl!,
            secretsKey: config.secretsKey,
            radiusHost: config.radiusHost,
            radiusAuthPort: config.radiusAuthPort,
            radiusAcctPort: config.radiusAcctPort,
            radiusCoaPort: config.radiusCoaPort,
            radiusWalledGardenPool: config.radiusWalledGardenPool,
            radiusInterimInterval: config.radiusInterimInterval,
            radiusDisconnectTimeoutMs: config.radiusDisconnectTimeoutMs,
            logLevel: config.logLevel,
          },
        })
      : null;
    let sweeping: Promise<{ stale: number; unconfirmed: number }> | null = null;
    let reloading: Promise<void> | null = null;
    const failed = (error: unknown) => log.error({ err: error }, 'RADIUS cache refresh failed');
    const reloadOne = (subscriptionId: string) => {
      pool?.broadcast({ type: 'reload', subscriptionId });
      // The cached fair-use usage too: another node may have moved its tier or activated a top-up.
      core.usage.forget(subscriptionId);
      subscribers.reload(subscriptionId).catch(failed);
    };
    const reloadAll = () => {
      pool?.broadcast({ type: 'reload-all' });
      reloading = subscribers.reloadAll().catch(failed);
    };
    const reloadClients = () => {
      pool?.broadcast({ type: 'reload-clients' });
      clients.reload().catch(failed);
    };

    const sweep = () =>
      (sweeping ??= (async () => {
        try {
          const stale = await accounting.sweepStale(clock.now());
          for (const id of stale) await cutoff.sessionEnded(id);
          // CoAs not confirmed by their deadline are disconnected (issue 36), then the due disconnect checks run.
          const unconfirmed = await cutoff.expireUnconfirmed(clock.now());
          await cutoff.checkDue(clock.now());
          return { stale: stale.length, unconfirmed };
        } finally {
          sweeping = null;
        }
      })());

    const runtime: RadiusRuntime = {
      enabled: config.radiusEnabled,
      ...core,
      server,
      ports: () => server?.ports() ?? pool?.listening ?? null,
      // Each change is applied here (the live sessions are cut off or re-rated once, by the process that made the
      // change) and published, so every other process's RADIUS directory reads it again before its next answer.
      accessChanged: (subscriptionId, change) => {
        void app.changes.publish(RADIUS_SUBSCRIPTION_CHANGED, { id: subscriptionId });
        if (!config.radiusEnabled) return;
        pool?.broadcast({ type: 'reload', subscriptionId });
        cutoff.accessChanged(subscriptionId, change);
      },
      plansChanged: () => {
        void app.changes.publish(RADIUS_PLANS_CHANGED);
        if (!config.radiusEnabled) return;
        reloadAll();
      },
      clientsChanged: () => {
        void app.changes.publish(RADIUS_CLIENTS_CHANGED);
        if (!config.radiusEnabled) return;
        reloadClients();
      },
      sweep,
      idle: async () => {
        await reloading;
        await cutoff.idle();
      },
    };
    app.decorate('radius', runtime);
    // Fair-use notices (issue 36): recorded once across the nodes by the RADIUS service, mailed here.
    service.usageNotice = (notice) =>
      (async () => {
        const [row] = await db
          .select({
            email: users.email,
            name: users.name,
            language: users.language,
            planName: plans.name,
            periodEnd: subscriptions.currentPeriodEnd,
          })
          .from(subscriptions)
          .innerJoin(users, eq(users.id, subscriptions.userId))
          .innerJoin(plans, eq(plans.id, subscriptions.planId))
          .where(eq(subscriptions.id, notice.subscriptionId));
        if (!row) return;
        const stored = await app.settings.stored();
        const company = stored.company.name;
        app.mail.send(
          usageNoticeMail(
            {
              to: row.email,
              name: row.name,
              company,
              appUrl: config.appUrl,
              language: languageOf(row.language, stored.languages.default),
              planName: row.planName,
              cycleEnd: row.periodEnd,
            },
            notice,
          ),
        );
      })().catch((error: unknown) => log.error({ err: error }, 'fair-use notice e-mail failed'));
    // A tier moved by this node's accounting: the other nodes drop their cached usage of it (their next login reads
    // the counter), through the same change as any subscription change.
    service.onFairUseTier = (subscriptionId) => {
      void app.changes.publish(RADIUS_SUBSCRIPTION_CHANGED, { id: subscriptionId });
      pool?.broadcast({ type: 'reload', subscriptionId });
    };
    service.onEnded = (subscriptionId) => runtime.accessChanged(subscriptionId, 'status');
    app.jobs.every(
      RADIUS_SWEEP_JOB,
      SWEEP_EVERY_MS / 1000,
      { expireInSeconds: 300 },
      () => sweep(),
      config.radiusEnabled,
    );

    const stopListening = onCredentialsChanged(
      (subscriptionId) =>
        void app.changes.publish(RADIUS_SUBSCRIPTION_CHANGED, { id: subscriptionId, credentials: true }),
    );
    app.addHook('onClose', async () => stopListening());
    if (!config.radiusEnabled) return;
    // Changes made by other processes (and new or rotated credentials, made here or there).
    const unsubscribe = [
      app.changes.subscribe(RADIUS_SUBSCRIPTION_CHANGED, (data, { local }) => {
        if (typeof data.id === 'string' && (!local || data.credentials)) reloadOne(data.id);
      }),
      app.changes.subscribe(RADIUS_PLANS_CHANGED, (_data, { local }) => {
        if (!local) reloadAll();
      }),
      app.changes.subscribe(RADIUS_CLIENTS_CHANGED, (_data, { local }) => {
        if (!local) reloadClients();
      }),
      app.changes.subscribe(RESYNC, () => {
        reloadAll();
        reloadClients();
      }),
    ];
    app.addHook('onReady', async () => {
      await Promise.all([subscribers.start(), clients.start()]);
      const ports = await (server
        ? server.listen({ host: config.radiusHost, authPort: config.radiusAuthPort, acctPort: config.radiusAcctPort })
        : pool!.start()
      ).catch((error: unknown) => {
        subscribers.stop();
        clients.stop();
        const code = (error as { code?: string }).code;
        if (code !== 'EADDRINUSE' && code !== 'EACCES' && code !== 'EADDRNOTAVAIL') throw error;
        throw new Error(
          `The RADIUS server cannot listen on ${config.radiusHost} UDP ${config.radiusAuthPort}/${config.radiusAcctPort} (${code}): ` +
            'another RADIUS server may be running there. Set RADIUS_AUTH_PORT/RADIUS_ACCT_PORT, or RADIUS_ENABLED=false.',
          { cause: error },
        );
      });
      log.info(
        { host: config.radiusHost, ...ports, subscribers: subscribers.size, workers: pool ? config.radiusWorkers : 0 },
        'RADIUS server listening',
      );
    });
    app.addHook('preClose', async () => {
      for (const stop of unsubscribe) stop();
      subscribers.stop();
      clients.stop();
      await server?.close();
      await pool?.close();
      await cutoff.idle();
      await sweeping?.catch(() => {});
      await dynauth.close();
    });
  },
  { name: 'radius', dependencies: ['db', 'settings', 'changes', 'jobs'] },
);
