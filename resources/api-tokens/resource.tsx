import type { BaseRecord } from '@refinedev/core';
import { apiTokenCreateSchema, apiTokenHint } from '../../contract/schemas/api-token';
import type { FieldOption } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { RevokeButton } from './RevokeButton';
import { KeyOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/** The roles a token may act as, as tags (super_admin offered only to super admins, see create.tsx). */
export const API_TOKEN_ROLE_OPTIONS: FieldOption[] = [
  { value: 'admin', labelKey: 'role.admin', color: 'red' },
  { value: 'billing', labelKey: 'role.billing', color: 'gold' },
  { value: 'support', labelKey: 'role.support', color: 'blue' },
  { value: 'technician', labelKey: 'role.technician', color: 'cyan' },
  { value: 'super_admin', labelKey: 'role.super_admin', color: 'magenta' },
];

/** Personal API tokens for integrations (issue 12): admins list, create and revoke them; secrets never listed. */
export const apiTokensResource = defineResource({
  name: 'api-tokens',
  auditTargets: ['api_token'],
  menu: { order: 120, labelKey: 'menu.apiTokens', icon: KeyOutlined },
  pages: { create: () => import('./create').then((m) => m.ApiTokenCreate) },
  titleKey: 'apiTokens.title',
  singularKey: 'apiTokens.singular',
  actions: [],
  defaultSort: { field: 'created_at', order: 'desc' },
  meta: { fallbackMessage: t('apiTokens.errors.list') },
  rowExtra: (record: BaseRecord) => <RevokeButton record={record} />,
  fields: [
    {
      name: 'name',
      type: 'text',
      labelKey: 'apiTokens.fields.name',
      column: true,
      priority: 1,
      form: true,
      schema: apiTokenCreateSchema.shape.name,
    },
    {
      name: 'role',
      type: 'status',
      labelKey: 'apiTokens.fields.role',
      column: true,
      form: true,
      options: API_TOKEN_ROLE_OPTIONS,
    },
    {
      name: 'prefix',
      type: 'text',
      labelKey: 'apiTokens.fields.prefix',
      column: true,
      priority: 3,
      render: (v) => <code data-testid="api-token-prefix">{apiTokenHint(String(v))}</code>,
    },
    { name: 'created_by_name', type: 'text', labelKey: 'apiTokens.fields.createdBy', column: true, priority: 3 },
    { name: 'created_at', type: 'date', labelKey: 'apiTokens.fields.createdAt', column: true, priority: 3 },
    {
      name: 'last_used_at',
      type: 'date',
      labelKey: 'apiTokens.fields.lastUsedAt',
      column: true,
      priority: 3,
      emptyKey: 'apiTokens.notUsed',
    },
    {
      name: 'expires_at',
      type: 'date',
      labelKey: 'apiTokens.fields.expiresAt',
      column: true,
      emptyKey: 'apiTokens.never',
    },
    {
      name: 'status',
      type: 'status',
      labelKey: 'apiTokens.fields.status',
      column: true,
      priority: 1,
      options: [
        { value: 'active', labelKey: 'apiTokens.status.active', color: 'green' },
        { value: 'revoked', labelKey: 'apiTokens.status.revoked', color: 'red' },
        { value: 'expired', labelKey: 'apiTokens.status.expired', color: 'default' },
      ],
    },
  ],
});
