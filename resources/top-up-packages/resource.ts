import { TOP_UP_KINDS, topUpPackageInputSchema } from '../../contract/schemas/top-up';

import { ThunderboltOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

const s = topUpPackageInputSchema.shape;

/**
 * Fair-use top-up packages (issue 36): what customers can buy for the rest of a cycle — extra gigabytes (added to
 * every usage tier's threshold and the data cap) or full speed until the cycle ends. Money in integer minor units.
 */
export const topUpPackagesResource = defineResource({
  name: 'top-up-packages',
  auditTargets: ['top_up_package'],
  menu: { order: 83, group: 'billing', labelKey: 'menu.topUpPackages', icon: ThunderboltOutlined },
  titleKey: 'topUps.title',
  singularKey: 'topUps.singular',
  search: true,
  defaultSort: { field: 'sort_order', order: 'asc' },
  messages: { created: 'topUps.toast.created', updated: 'topUps.toast.updated', deleted: 'topUps.toast.deleted' },
  toggle: {
    field: 'status',
    on: 'active',
    off: 'inactive',
    labelKey: 'topUps.fields.active',
    onMessageKey: 'topUps.toast.updated',
    offMessageKey: 'topUps.toast.updated',
  },
  fields: [
    {
      name: 'name',
      type: 'text',
      labelKey: 'topUps.fields.name',
      column: true,
      priority: 1,
      sortable: true,
      form: true,
      schema: s.name,
    },
    {
      name: 'kind',
      type: 'select',
      labelKey: 'topUps.fields.kind',
      column: true,
      filter: true,
      form: true,
      schema: s.kind,
      defaultValue: 'extra_data',
      options: TOP_UP_KINDS.map((k) => ({ value: k, labelKey: `topUps.kind.${k}` })),
    },
    {
      name: 'data_gb',
      type: 'number',
      labelKey: 'topUps.fields.dataGb',
      unitKey: 'plans.units.gb',
      emptyKey: 'topUps.noData',
      column: true,
      form: true,
      emptyAsNull: true,
    },
    {
      name: 'price',
      type: 'money',
      labelKey: 'topUps.fields.price',
      column: true,
      sortable: true,
      form: true,
      schema: s.price,
    },
    { name: 'currency', type: 'text', labelKey: 'topUps.fields.currency', form: true, schema: s.currency },
    {
      name: 'sort_order',
      type: 'number',
      labelKey: 'topUps.fields.sortOrder',
      sortable: true,
      form: true,
      schema: s.sort_order,
      defaultValue: 0,
    },
    {
      name: 'status',
      type: 'status',
      labelKey: 'topUps.fields.status',
      column: true,
      priority: 1,
      filter: true,
      form: true,
      defaultValue: 'active',
      options: [
        { value: 'active', labelKey: 'plans.status.active', color: 'green' },
        { value: 'inactive', labelKey: 'plans.status.inactive', color: 'default' },
      ],
    },
  ],
});
