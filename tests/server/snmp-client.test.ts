/**
 * The SNMP client against Debian's real snmpd on loopback: v2c and v3 (authPriv) reads of the host's own
 * MIB-II/IF-MIB, and each failure classified the way the "test connection" result and the poller report it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSnmpSession,
  OID,
  SnmpError,
  snmpGet,
  snmpMac,
  snmpText,
  snmpWalk,
  type SnmpSettings,
} from '../../server/integrations/snmp';
import { startSnmpd, type Snmpd } from '../helpers/snmpd';

let agent: Snmpd;
beforeAll(async () => {
  agent = await startSnmpd();
});
afterAll(async () => {
  await agent?.stop();
});

async function attempt(settings: SnmpSettings): Promise<{ error: SnmpError | null; ms: number }> {
  const session = createSnmpSession(settings);
  const started = Date.now();
  try {
    await snmpGet(session, [OID.sysName]);
    return { error: null, ms: Date.now() - started };
  } catch (e) {
    return { error: e as SnmpError, ms: Date.now() - started };
  } finally {
    session.close();
  }
}

describe('SNMP client against snmpd', () => {
  it('reads the system group over v2c and over v3 authPriv (SHA/AES)', async () => {
    for (const settings of [agent.v2c(), agent.v3()]) {
      const session = createSnmpSession(settings);
      try {
        const [name, descr, uptime] = await snmpGet(session, [OID.sysName, OID.sysDescr, OID.sysUpTime]);
        expect(snmpText(name.value)).toBe('test-snmpd');
        expect(snmpText(descr.value)).toMatch(/Linux/);
        expect(uptime.type).toBe('TimeTicks');
        expect(typeof uptime.value).toBe('number');
      } finally {
        session.close();
      }
    }
  });

  it('walks the host interfaces: the loopback with 64-bit octet counters as bigint', async () => {
    const session = createSnmpSession(agent.v2c());
    try {
      const names = await snmpWalk(session, OID.ifName);
      const loopback = names.find((vb) => snmpText(vb.value) === 'lo');
      expect(loopback).toBeDefined();
      const ifIndex = loopback!.oid.slice(OID.ifName.length + 1);
      const [inOctets, mac] = await snmpGet(session, [
        `${OID.ifHCInOctets}.${ifIndex}`,
        `${OID.ifPhysAddress}.${ifIndex}`,
      ]);
      expect(inOctets.type).toBe('Counter64');
      expect(typeof inOctets.value).toBe('bigint');
      expect(snmpMac(mac.value)).toBe('');
      // A missing instance is a value of null, not an error.
      const [missing] = await snmpGet(session, [`${OID.ifName}.999999`]);
      expect(missing.value).toBeNull();
    } finally {
      session.close();
    }
  });

  it('a wrong v2c community is a timeout (the agent stays silent), reported as such within the timeout', async () => {
    const { error, ms } = await attempt(agent.v2c({ community: 'not-the-community', timeoutMs: 500 }));
    expect(error).toBeInstanceOf(SnmpError);
    expect(error!.kind).toBe('timeout');
    expect(error!.message).toMatch(/timeout or wrong community/);
    // The 500 ms timeout ended the wait (the agent never answers), with room for a loaded machine.
    expect(ms).toBeLessThan(3000);
  });

  it('a wrong v3 auth key or an unknown v3 user is an auth failure, answered at once', async () => {
    const wrongKey = await attempt(agent.v3({ authKey: 'not-the-auth-key' }));
    expect(wrongKey.error?.kind).toBe('auth');
    expect(wrongKey.error?.message).toMatch(/Wrong Digest/);
    const unknownUser = await attempt(agent.v3({ user: 'nobody' }));
    expect(unknownUser.error?.kind).toBe('auth');
    expect(unknownUser.error?.message).toMatch(/Unknown User Name/);
  });

  it('a wrong v3 privacy key is a timeout (the agent drops what it cannot decrypt), and the message says so', async () => {
    const { error } = await attempt(agent.v3({ privKey: 'not-the-priv-key', timeoutMs: 300 }));
    expect(error?.kind).toBe('timeout');
    expect(error?.message).toMatch(/privacy key is wrong/);
  });

  it('a host name that does not resolve is unreachable', async () => {
    const { error } = await attempt(agent.v2c({ host: 'no-such-device.invalid' }));
    expect(error?.kind).toBe('unreachable');
    expect(error?.message).toMatch(/host name not found/);
  });
});
