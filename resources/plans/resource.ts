import { BILLING_CYCLES, DATA_CAP_ACTIONS, planInputSchema } from '../../contract/schemas/plan';

import { AppstoreOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

const s = planInputSchema.shape;

/** Plans (spec §3, §4, §7): the back office's catalogue of internet plans. Money in integer minor units. */
export const plansResource = defineResource({
  name: 'plans',
  auditTargets: ['plan'],
  menu: { order: 81, group: 'billing', labelKey: 'menu.plans', icon: AppstoreOutlined },
  titleKey: 'plans.title',
  singularKey: 'plans.singular',
  search: true,
  defaultSort: { field: 'sort_order', order: 'asc' },
  messages: { created: 'plans.toast.created', updated: 'plans.toast.updated', deleted: 'plans.toast.deleted' },
  toggle: {
    field: 'status',
    on: 'active',
    off: 'inactive',
    labelKey: 'plans.fields.active',
    onMessageKey: 'plans.toast.activated',
    offMessageKey: 'plans.toast.deactivated',
    confirmOff: { titleKey: 'plans.off.title', contentKey: 'plans.off.content', okKey: 'plans.off.ok' },
  },
  fields: [
    { name: 'name', type: 'text', labelKey: 'plans.fields.name', column: true, priority: 1, sortable: true, form: true, schema: s.name },
    { name: 'slug', type: 'text', labelKey: 'plans.fields.slug', form: true, schema: s.slug },
    { name: 'description', type: 'textarea', labelKey: 'plans.fields.description', form: true, schema: s.description, emptyAsNull: true },
    { name: 'download_mbps', type: 'number', labelKey: 'plans.fields.download', unitKey: 'plans.units.mbps', column: true, form: true, schema: s.download_mbps },
    { name: 'upload_mbps', type: 'number', labelKey: 'plans.fields.upload', unitKey: 'plans.units.mbps', column: true, priority: 3, form: true, schema: s.upload_mbps },
    { name: 'data_cap_gb', type: 'number', labelKey: 'plans.fields.dataCap', unitKey: 'plans.units.gb', emptyKey: 'plans.unlimited', form: true, schema: s.data_cap_gb, emptyAsNull: true },
    {
      name: 'data_cap_action', type: 'select', labelKey: 'plans.fields.dataCapAction', form: true, schema: s.data_cap_action, defaultValue: 'reject',
      options: DATA_CAP_ACTIONS.map((a) => ({ value: a, labelKey: `plans.dataCapAction.${a}` })),
    },
    { name: 'throttle_download_kbps', type: 'number', labelKey: 'plans.fields.throttleDownload', unitKey: 'plans.units.kbps', emptyKey: 'plans.throttleDefault', form: true, schema: s.throttle_download_kbps, emptyAsNull: true },
    { name: 'throttle_upload_kbps', type: 'number', labelKey: 'plans.fields.throttleUpload', unitKey: 'plans.units.kbps', emptyKey: 'plans.throttleDefault', form: true, schema: s.throttle_upload_kbps, emptyAsNull: true },
    { name: 'price', type: 'money', labelKey: 'plans.fields.price', column: true, sortable: true, form: true, schema: s.price },
    { name: 'setup_fee', type: 'money', labelKey: 'plans.fields.setupFee', form: true, schema: s.setup_fee, defaultValue: 0 },
    { name: 'currency', type: 'text', labelKey: 'plans.fields.currency', form: true, schema: s.currency },
    {
      name: 'billing_cycle', type: 'select', labelKey: 'plans.fields.billingCycle', column: true, filter: true, form: true,
      schema: s.billing_cycle, defaultValue: 'monthly',
      options: BILLING_CYCLES.map((c) => ({ value: c, labelKey: `plans.cycle.${c}` })),
    },
    { name: 'features', type: 'tags', labelKey: 'plans.fields.features', form: true, schema: s.features },
    { name: 'is_featured', type: 'boolean', labelKey: 'plans.fields.featured', form: true, defaultValue: false },
    { name: 'requires_installation', type: 'boolean', labelKey: 'plans.fields.requiresInstallation', form: true, defaultValue: false },
    { name: 'sort_order', type: 'number', labelKey: 'plans.fields.sortOrder', column: true, priority: 3, sortable: true, form: true, schema: s.sort_order, defaultValue: 0 },
    {
      name: 'status', type: 'status', labelKey: 'plans.fields.status', column: true, priority: 1, filter: true, form: true, defaultValue: 'active',
      options: [
        { value: 'active', labelKey: 'plans.status.active', color: 'green' },
        { value: 'inactive', labelKey: 'plans.status.inactive', color: 'default' },
      ],
    },
    { name: 'created_at', type: 'date', labelKey: 'plans.fields.createdAt', column: true, priority: 3, sortable: true },
    { name: 'updated_at', type: 'date', labelKey: 'plans.fields.updatedAt' },
  ],
});
