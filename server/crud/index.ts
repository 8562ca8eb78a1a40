/**
 * The shipped CRUD resources: each a crudModule (server/crud/crud-module.ts) serving the API of its entry in the
 * role matrix (contract/roles.ts). server/app.ts mounts them under /api; a new plain resource is one entry there
 * and one module here.
 */
import type { FastifyPluginAsync } from 'fastify';
import contactMessagesModule from '../modules/contact/module';
import gatewaysModule from '../modules/gateways/module';
import incidentsModule from '../modules/outages/module';
import messageProvidersModule from '../modules/messaging/providers-module';
import plansModule from '../modules/plans/module';
import topUpPackagesModule from '../modules/top-ups/module';

export const CRUD_MODULES: readonly FastifyPluginAsync[] = [
  plansModule,
  gatewaysModule,
  contactMessagesModule,
  topUpPackagesModule,
  incidentsModule,
  messageProvidersModule,
];
