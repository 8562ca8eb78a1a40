export { SnmpError, type SnmpErrorKind } from './errors';
export { OID } from './oids';
export {
  createSnmpSession,
  oidSuffix,
  snmpGet,
  snmpMac,
  snmpText,
  snmpWalk,
  type SnmpCallOptions,
  type SnmpSession,
  type SnmpSettings,
  type SnmpV2cSettings,
  type SnmpV3Settings,
  type SnmpValue,
  type SnmpVarbind,
} from './session';
export { probeUdpPort, type UdpProbeResult } from './probe';
