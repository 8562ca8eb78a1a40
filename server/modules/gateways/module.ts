/**
 * /api/payments/gateways on the CRUD factory, managed by admin and billing. Any signed-in user lists the active
 * gateways (to choose how to pay) without credentials; managers get every gateway with masked credentials.
 * What is special: credentials sealed at rest and checked against the provider, one default at a time (the
 * first gateway is it; the default is deleted only last), the toggle's wording, and an audit diff that names
 * a changed credential but never its value.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { allows } from '../../../contract/roles';
import {
  gatewayInputSchema,
  gatewaySchema,
  gatewayUpdateSchema,
  PAYMENT_PROVIDERS,
  publicGatewaySchema,
} from '../../../contract/schemas/gateway';
import { crudModule, onlySent } from '../../crud/crud-module';
import { paymentGateways } from '../../db/schema';
import type { Db } from '../../db/client';
import { badRequest, conflict } from '../../lib/errors';
import { createGatewayRepository } from './repository';
import { GatewayService } from './service';

export const GATEWAY_MESSAGES = {
  list: 'Payment gateways retrieved successfully',
  detail: 'Payment gateway retrieved successfully',
  created: 'Payment gateway created successfully',
  updated: 'Payment gateway updated successfully',
  activated: 'Payment gateway activated',
  deactivated: 'Payment gateway deactivated',
  deleted: 'Payment gateway deleted successfully',
  notFound: 'Payment gateway not found',
  nameTaken: 'A payment gateway with this name already exists',
  deleteDefault: 'Make another gateway the default first',
  lastActive:
    'This is the only active payment gateway: without it no customer can pay. Activate another gateway first.',
  deactivateDefault:
    'This is the default payment gateway. Make another active gateway the default first, then turn this one off.',
  undefault: 'Make another gateway the default first: one gateway is always the default.',
  inactiveDefault: 'Turn this gateway on before making it the default: customers are offered the default gateway.',
  defaultRace: 'Another gateway was made the default at the same time; try again',
  sandboxInProduction:
    'The Sandbox gateway cannot be used in production: anyone holding a checkout link could approve a payment. Set ALLOW_SANDBOX_PAYMENTS=true to allow it anyway.',
} as const;

/** Who manages gateways (and sees their masked credentials). */
export const GATEWAY_MANAGERS = ['admin', 'billing'] as const;
const manager = (request: FastifyRequest) => allows(GATEWAY_MANAGERS, request.user?.role);

const service = (app: FastifyInstance) => new GatewayService({ box: app.secretBox });

/** Making a gateway the default: the others stop being it, in the same transaction. */
const clearOtherDefaults = (db: Db, exceptId?: string) => createGatewayRepository(db).clearOtherDefaults(exceptId);

const gatewayCount = (db: Db) => createGatewayRepository(db).count();

const toggled = (input: object | null) => onlySent(input, 'is_active');

/**
 * Customers must always have a way to pay: the last active gateway is not switched off, the default is not
 * switched off while it is the default, and the default is not un-defaulted (another one is made the default
 * instead, which clears it). The active gateways are locked first, so two switches at once cannot both pass.
 */
const refuseStoppingPayments = async (
  app: FastifyInstance,
  db: Db,
  before: { id: string; isActive: boolean; isDefault: boolean; provider: string },
  input: { is_active?: boolean; is_default?: boolean },
) => {
  if (input.is_default === true && !before.isDefault && !(input.is_active ?? before.isActive)) {
    throw conflict(GATEWAY_MESSAGES.inactiveDefault, [
      { field: 'is_default', message: GATEWAY_MESSAGES.inactiveDefault },
    ]);
  }
  if (before.isDefault && input.is_default === false)
    throw conflict(GATEWAY_MESSAGES.undefault, [{ field: 'is_default', message: GATEWAY_MESSAGES.undefault }]);
  if (!before.isActive || input.is_active !== false) return;
  // A Sandbox gateway in production (without ALLOW_SANDBOX_PAYMENTS) takes no payment: switching it off stops
  // nothing, and it does not count as a way to pay for the others either.
  const takesPayments = (provider: string) => provider !== 'sandbox' || app.config.sandboxPaymentsAllowed;
  if (!takesPayments(before.provider)) return;
  const active = await createGatewayRepository(db).lockActive();
  if (!active.some((g) => g.id !== before.id && takesPayments(g.provider)))
    throw conflict(GATEWAY_MESSAGES.lastActive, [{ field: 'is_active', message: GATEWAY_MESSAGES.lastActive }]);
  if (before.isDefault)
    throw conflict(GATEWAY_MESSAGES.deactivateDefault, [
      { field: 'is_active', message: GATEWAY_MESSAGES.deactivateDefault },
    ]);
};

/** In production without ALLOW_SANDBOX_PAYMENTS: no Sandbox gateway may be created, or enabled by an update. */
const refuseSandbox = (app: FastifyInstance, field: 'provider' | 'is_active') => {
  if (!app.config.sandboxPaymentsAllowed)
    throw badRequest(GATEWAY_MESSAGES.sandboxInProduction, [{ field, message: GATEWAY_MESSAGES.sandboxInProduction }]);
};

export default crudModule({
  name: 'payment-gateways',
  table: paymentGateways,
  schemas: {
    record: gatewaySchema,
    input: gatewayInputSchema,
    update: gatewayUpdateSchema,
    listItem: z.union([gatewaySchema, publicGatewaySchema]),
  },
  label: 'Payment gateway',
  messages: { notFound: GATEWAY_MESSAGES.notFound, conflict: GATEWAY_MESSAGES.nameTaken },
  // A handful of gateways, shown in their display order: one unpaginated list.
  paginate: false,
  defaultSort: { field: 'display_order', order: 'asc' },
  tieBreak: ['name'],
  audit: { targetType: 'gateway' },
  hooks: {
    // Customers see the active gateways they can pay with: in production (without ALLOW_SANDBOX_PAYMENTS) a
    // Sandbox gateway left from before takes no payment, so it is not offered. Managers see it, to remove it.
    scope: (request) =>
      manager(request)
        ? undefined
        : request.server.config.sandboxPaymentsAllowed
          ? { is_active: true }
          : { is_active: true, provider: PAYMENT_PROVIDERS.filter((p) => p !== 'sandbox') },
    toRecord: (row, { app }) => service(app).toGateway(row),
    toListItem: (row, { app, request }) =>
      manager(request) ? service(app).toGateway(row) : service(app).toPublic(row),
    beforeCreate: async (values, input, { app, db }) => {
      if (input.provider === 'sandbox') refuseSandbox(app, 'provider');
      const gateways = service(app);
      gateways.checkKeys(input.provider, input.credentials);
      values.credentials = gateways.seal(gateways.merge(input.provider, {}, input.credentials));
      // The very first gateway becomes the default.
      values.isDefault = input.is_default || (await gatewayCount(db)) === 0;
      if (values.isDefault) await clearOtherDefaults(db);
      return values;
    },
    beforeUpdate: async (before, values, input, { app, db }) => {
      const gateways = service(app);
      const provider = input.provider ?? before.provider;
      // Enabling a sandbox gateway (switching it on, or turning an active gateway into one); editing or switching
      // off one that is already on stays possible (it takes no payments anyway).
      const activeAfter = input.is_active ?? before.isActive;
      if (provider === 'sandbox' && activeAfter && (!before.isActive || before.provider !== 'sandbox')) {
        refuseSandbox(app, input.provider !== undefined && before.provider !== 'sandbox' ? 'provider' : 'is_active');
      }
      await refuseStoppingPayments(app, db, before, input);
      gateways.checkKeys(provider, input.credentials);
      delete values.credentials;
      if (input.credentials !== undefined || input.provider !== undefined) {
        values.credentials = gateways.seal(
          gateways.merge(provider, gateways.openCredentials(before), input.credentials),
        );
      }
      if (values.isDefault) await clearOtherDefaults(db, before.id);
      return values;
    },
    beforeDelete: async (before, { db }) => {
      if (before.isDefault && (await gatewayCount(db)) > 1) throw conflict(GATEWAY_MESSAGES.deleteDefault);
    },
    message: (action, gateway, input) =>
      action === 'updated' && toggled(input)
        ? gateway.is_active
          ? GATEWAY_MESSAGES.activated
          : GATEWAY_MESSAGES.deactivated
        : undefined,
    auditAction: (action, gateway, input) =>
      action === 'updated' && toggled(input) ? (gateway.is_active ? 'gateway.enabled' : 'gateway.disabled') : undefined,
    auditChanges: (before, after, { app }) => service(app).auditDiff(before, after),
    // Two gateways made the default at once: the partial unique index refuses the second.
    conflictMessage: (constraint) => (constraint.includes('default') ? GATEWAY_MESSAGES.defaultRace : undefined),
  },
});
