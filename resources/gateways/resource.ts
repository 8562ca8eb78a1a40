import { GATEWAY_MODES, PAYMENT_PROVIDERS, gatewayInputSchema } from '../../contract/schemas/gateway';

import { credentialsCell, credentialsInput, credentialsPayload, defaultCell } from './credentials';
import { createElement } from 'react';
import { CreditCardOutlined } from '@ant-design/icons';
import { DefaultGatewayOff } from './DefaultGatewayOff';
import { defineResource } from '../../src/components/resource/define';

const s = gatewayInputSchema.shape;

const PROVIDER_COLORS: Record<string, string> = { sandbox: 'blue', stripe: 'purple', manual: 'default' };
const MODE_COLORS: Record<string, string> = { test: 'orange', live: 'green' };

/**
 * Payment gateways (spec §3, §4, §7, §8): the back office's providers customers pay through. Credentials are
 * write-only: shown masked, never pre-filled, and only the keys the user typed are sent.
 */
export const gatewaysResource = defineResource({
  name: 'payment-gateways',
  auditTargets: ['gateway'],
  menu: { order: 82, group: 'billing', labelKey: 'menu.paymentGateways', icon: CreditCardOutlined },
  titleKey: 'gateways.title',
  singularKey: 'gateways.singular',
  messages: { created: 'gateways.toast.created', updated: 'gateways.toast.updated', deleted: 'gateways.toast.deleted' },
  toggle: {
    field: 'is_active',
    on: true,
    off: false,
    labelKey: 'gateways.fields.active',
    onMessageKey: 'gateways.toast.activated',
    offMessageKey: 'gateways.toast.deactivated',
    // Customers pay through the active gateways: switching one off asks first; the default cannot go off as it is.
    confirmOff: { titleKey: 'gateways.off.title', contentKey: 'gateways.off.content', okKey: 'gateways.off.ok' },
    offBlocked: ({ record, close }) =>
      record.is_default === true ? createElement(DefaultGatewayOff, { record, close }) : null,
  },
  fields: [
    {
      name: 'name',
      type: 'text',
      labelKey: 'gateways.fields.name',
      column: true,
      priority: 1,
      form: true,
      schema: s.name,
    },
    {
      name: 'provider',
      type: 'status',
      labelKey: 'gateways.fields.provider',
      column: true,
      form: true,
      schema: s.provider,
      options: PAYMENT_PROVIDERS.map((p) => ({
        value: p,
        labelKey: `gateways.provider.${p}`,
        color: PROVIDER_COLORS[p],
      })),
    },
    {
      name: 'mode',
      type: 'status',
      labelKey: 'gateways.fields.mode',
      column: true,
      priority: 1,
      form: true,
      schema: s.mode,
      defaultValue: 'test',
      options: GATEWAY_MODES.map((m) => ({ value: m, labelKey: `gateways.mode.${m}`, color: MODE_COLORS[m] })),
    },
    {
      name: 'credentials',
      type: 'custom',
      labelKey: 'gateways.fields.credentials',
      column: true,
      priority: 3,
      form: true,
      render: (value) => credentialsCell(value),
      input: credentialsInput,
      // Write-only: the stored (masked) values are never form values.
      fromRecord: () => undefined,
      toPayload: credentialsPayload,
    },
    {
      name: 'is_default',
      type: 'boolean',
      labelKey: 'gateways.fields.default',
      column: true,
      form: true,
      defaultValue: false,
      render: (value) => defaultCell(value),
    },
    {
      name: 'display_order',
      type: 'number',
      labelKey: 'gateways.fields.displayOrder',
      column: true,
      priority: 3,
      form: true,
      schema: s.display_order,
      defaultValue: 0,
    },
    { name: 'is_active', type: 'boolean', labelKey: 'gateways.fields.active', form: true, defaultValue: true },
    { name: 'created_at', type: 'date', labelKey: 'gateways.fields.createdAt' },
    { name: 'updated_at', type: 'date', labelKey: 'gateways.fields.updatedAt' },
  ],
});
