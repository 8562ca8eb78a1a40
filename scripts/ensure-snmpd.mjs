// The SNMP tests start Debian's snmpd on a loopback port (never a mock). Install it when missing.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const SNMPD = process.env.SNMPD_PATH ?? '/usr/sbin/snmpd';
if (existsSync(SNMPD)) process.exit(0);

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = asRoot ? [] : ['sudo', '-n'];
console.log(`${SNMPD} not found: installing Debian's snmpd package for the SNMP tests...`);
const run = (args) =>
  spawnSync(args[0], args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
let r = run([...sudo, 'apt-get', 'install', '-y', '-qq', 'snmpd']);
if (r.status !== 0 || !existsSync(SNMPD)) {
  r = run([...sudo, 'apt-get', 'update', '-qq']);
  if (r.status === 0) r = run([...sudo, 'apt-get', 'install', '-y', '-qq', 'snmpd']);
}
if (r.status !== 0 || !existsSync(SNMPD)) {
  console.error('Could not install snmpd. Install it with: apt-get install -y snmpd (or set SNMPD_PATH).');
  process.exit(1);
}
