/** Network devices (issue 7): the admin's device management and the technician's read-only list. */
export const devices: Record<string, string> = {
  'devices.title': 'Devices',
  'devices.singular': 'device',
  'devices.libreqos.button': 'LibreQoS files',
  'devices.libreqos.shapedDevices': 'ShapedDevices.csv (subscribers)',
  'devices.libreqos.network': 'network.json (sites and NAS)',
  'devices.libreqos.error': 'The LibreQoS file could not be downloaded',
  'devices.fields.name': 'Name',
  'devices.fields.vendor': 'Vendor',
  'devices.fields.model': 'Model',
  'devices.fields.host': 'Host / IP address',
  'devices.fields.location': 'Location / site',
  'devices.fields.tags': 'Tags',
  'devices.fields.notes': 'Notes',
  'devices.fields.status': 'Status',
  'devices.fields.statusChangedAt': 'Status since',
  'devices.fields.lastSeenAt': 'Last seen',
  'devices.fields.lastError': 'Last error',
  'devices.fields.createdAt': 'Created',
  'devices.fields.updatedAt': 'Updated',
  'devices.fields.snmpVersion': 'SNMP version',
  'devices.fields.snmpPort': 'SNMP port',
  'devices.fields.snmpCommunity': 'SNMP community',
  'devices.fields.snmpV3User': 'SNMPv3 user',
  'devices.fields.snmpV3AuthProtocol': 'Authentication protocol',
  'devices.fields.snmpV3AuthKey': 'Authentication key',
  'devices.fields.snmpV3PrivProtocol': 'Privacy protocol',
  'devices.fields.snmpV3PrivKey': 'Privacy key',
  'devices.fields.apiType': 'Management API',
  'devices.fields.apiPort': 'API port',
  'devices.fields.apiTls': 'Use TLS',
  'devices.fields.apiUsername': 'API user name',
  'devices.fields.apiPassword': 'API password',
  'devices.fields.radiusSecret': 'RADIUS shared secret',
  'devices.fields.hotspotUrl': 'Hotspot login URL',

  'devices.section.general': 'Device',
  'devices.section.snmp': 'SNMP',
  'devices.section.api': 'Management API',
  'devices.section.radius': 'RADIUS',

  'devices.vendor.mikrotik': 'MikroTik',
  'devices.vendor.cisco': 'Cisco (IOS-XE ISG / ASR BNG)',
  'devices.vendor.juniper': 'Juniper (MX / E-series BNG)',
  'devices.vendor.huawei': 'Huawei (ME60 / NetEngine BRAS)',
  'devices.vendor.cambium': 'Cambium (ePMP / cnPilot)',
  'devices.vendor.generic': 'Generic (SNMP, WISPr RADIUS)',
  'devices.status.up': 'Up',
  'devices.status.down': 'Down',
  'devices.status.unknown': 'Unknown',
  'devices.snmpVersion.v2c': 'v2c (community)',
  'devices.snmpVersion.v3': 'v3 (user)',
  'devices.apiType.none': 'None',
  'devices.apiType.rest': 'RouterOS REST API (HTTP/HTTPS)',
  'devices.apiType.api': 'RouterOS API port',
  'devices.auth.none': 'None (noAuthNoPriv)',
  'devices.priv.none': 'None (authNoPriv)',
  'devices.apiPortHelp': 'Leave empty for the default: REST 443 (TLS) or 80, API 8729 (TLS) or 8728.',

  'devices.secret.keep': 'Stored: {masked} — leave empty to keep it',
  'devices.secret.notSet': 'Not set',
  'devices.secret.set': 'Set ({masked})',

  'devices.never': 'never',

  'devices.test.button': 'Test connection',
  'devices.test.title': 'Connection test',
  'devices.test.snmp': 'SNMP',
  'devices.test.api': 'Management API',
  'devices.test.latency': '{ms} ms',
  'devices.test.failed': 'The connection test could not be run',
  'devices.test.result.reachable': 'Reachable',
  'devices.test.result.auth_failed': 'Authentication failed',
  'devices.test.result.timeout': 'Timeout',
  'devices.test.result.unreachable': 'Unreachable',
  'devices.test.result.error': 'Error',
  'devices.test.result.not_configured': 'Not configured',

  'devices.toast.created': 'Device created successfully',
  'devices.toast.updated': 'Device updated successfully',
  'devices.toast.deleted': 'Device deleted successfully',

  'errors.devices.list': 'Failed to fetch devices', // not in spec
  'errors.devices.one': 'Failed to fetch device details', // not in spec
  'errors.devices.create': 'Failed to create device', // not in spec
  'errors.devices.update': 'Failed to update device', // not in spec
  'errors.devices.delete': 'Failed to delete device', // not in spec
};
// The admin's resource is named router-devices (its menu entry); its error texts are the same.
for (const op of ['list', 'one', 'create', 'update', 'delete'])
  devices[`errors.router-devices.${op}`] = devices[`errors.devices.${op}`];
