import { ApiOutlined } from '@ant-design/icons';
import { messageProviderInputSchema } from '../../contract/schemas/message-provider';
import { MESSAGE_PROVIDERS, PROVIDER_CHANNELS } from '../../contract/schemas/messaging';
import { defineResource } from '../../src/components/resource/define';
import { defaultCell } from '../gateways/credentials';
import { configInput, keysPayload, keyValuesCell, secretsInput } from './inputs';

const s = messageProviderInputSchema.shape;

/**
 * SMS / WhatsApp providers (issue 38), admin only: Twilio, WhatsApp Cloud, a generic webhook gateway or the
 * log-only provider for development. One default per channel; secrets write-only; the callback URL to give the
 * provider is shown on the record.
 */
export const messageProvidersResource = defineResource({
  name: 'message-providers',
  auditTargets: ['message_provider'],
  menu: { order: 171, labelKey: 'menu.messageProviders', icon: ApiOutlined },
  titleKey: 'messageProviders.title',
  singularKey: 'messageProviders.singular',
  fields: [
    { name: 'name', type: 'text', labelKey: 'messageProviders.fields.name', column: true, form: true, schema: s.name },
    {
      name: 'channel',
      type: 'status',
      labelKey: 'messageProviders.fields.channel',
      column: true,
      form: true,
      filter: true,
      schema: s.channel,
      options: PROVIDER_CHANNELS.map((c) => ({ value: c, labelKey: `messaging.channel.${c}`, color: 'blue' })),
    },
    {
      name: 'provider',
      type: 'status',
      labelKey: 'messageProviders.fields.provider',
      column: true,
      form: true,
      schema: s.provider,
      options: MESSAGE_PROVIDERS.map((p) => ({ value: p, labelKey: `messageProviders.provider.${p}` })),
    },
    {
      name: 'config',
      type: 'custom',
      labelKey: 'messageProviders.fields.config',
      form: true,
      render: (v) => keyValuesCell(v),
      input: configInput,
      toPayload: keysPayload('config'),
    },
    {
      name: 'secrets',
      type: 'custom',
      labelKey: 'messageProviders.fields.secrets',
      form: true,
      render: (v) => keyValuesCell(v),
      input: secretsInput,
      fromRecord: () => undefined,
      toPayload: keysPayload('secrets'),
    },
    {
      name: 'is_default',
      type: 'boolean',
      labelKey: 'messageProviders.fields.default',
      column: true,
      form: true,
      defaultValue: false,
      render: (v) => defaultCell(v),
    },
    {
      name: 'rate_per_minute',
      type: 'number',
      labelKey: 'messageProviders.fields.rate',
      column: true,
      priority: 3,
      form: true,
      schema: s.rate_per_minute,
      defaultValue: 60,
    },
    {
      name: 'is_active',
      type: 'boolean',
      labelKey: 'messageProviders.fields.active',
      column: true,
      form: true,
      defaultValue: true,
    },
    { name: 'callback_url', type: 'text', labelKey: 'messageProviders.fields.callbackUrl' },
    { name: 'updated_at', type: 'date', labelKey: 'messageProviders.fields.updatedAt' },
  ],
});
