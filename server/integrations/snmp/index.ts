export { SnmpError } from './errors';
export { OID } from './oids';
export {
  createSnmpSession,
  snmpGet,
  snmpMac,
  snmpText,
  snmpWalk,
  type SnmpSettings,
  type SnmpV2cSettings,
  type SnmpV3Settings,
} from './session';
export { probeUdpPort } from './probe';
