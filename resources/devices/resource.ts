import type { FieldDef } from '../../src/components/resource';
import { createElement } from 'react';
import { FormTestConnection } from './components/FormTestConnection';
import { LibreqosDownload } from './components/LibreqosDownload';
import { adminFields, summaryFields } from './fields';
import { CloudServerOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/** The form's "Test connection" (not a value). */
const testField: FieldDef = {
  name: 'test_connection',
  type: 'custom',
  labelKey: 'devices.test.button',
  form: true,
  show: false,
  input: ({ record }) => createElement(FormTestConnection, { record }),
  toPayload: () => undefined,
};

/**
 * Network devices (issue 7). Admins manage them under /dashboard/nas/router/devices (every setting, secrets
 * write-only); technicians get the same list read-only under /dashboard/nas/devices (status, location,
 * interfaces) with no secret, no configuration and no edit button. Both read /api/devices: the server decides
 * what each role receives.
 */
export const routerDevicesResource = defineResource({
  name: 'router-devices',
  menu: { order: 91, group: 'network', labelKey: 'menu.routerDevices', icon: CloudServerOutlined },
  pages: { show: () => import('./show').then((m) => m.DeviceShow) },
  titleKey: 'devices.title',
  singularKey: 'devices.singular',
  search: true,
  meta: { endpoint: 'devices' },
  messages: { created: 'devices.toast.created', updated: 'devices.toast.updated', deleted: 'devices.toast.deleted' },
  // The LibreQoS shaper export (issue 36): admin and technicians may download it (contract/roles.ts).
  listButtons: () => createElement(LibreqosDownload),
  fields: [...adminFields, testField],
});

export const technicianDevicesResource = defineResource({
  name: 'devices',
  auditTargets: ['device'],
  menu: { order: 100, labelKey: 'menu.devices', icon: CloudServerOutlined },
  pages: { show: () => import('./show').then((m) => m.TechnicianDeviceShow) },
  titleKey: 'devices.title',
  singularKey: 'devices.singular',
  search: true,
  meta: { endpoint: 'devices' },
  actions: ['show'],
  canCreate: false,
  listButtons: () => createElement(LibreqosDownload),
  fields: summaryFields.map((f) => ({ ...f, form: false })),
});
