/**
 * The two text tools behind the configuration screens: masking a RouterOS export's secrets without moving
 * any line, and the line diff between two versions (checked against random edits: both texts are always
 * recovered from it, and the hunks number their lines correctly).
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_MASK } from '../../contract/schemas/device-backup';
import { diffLines, toHunks } from '../../server/modules/device-backups/diff';
import { maskRouterOsExport } from '../../server/modules/device-backups/mask';

const M = CONFIG_MASK;

describe('masking a RouterOS export', () => {
  it('masks secret properties in every menu, bare or quoted, and leaves the rest alone', () => {
    const text = [
      '# 2026-11-23 by RouterOS 7.16',
      '/interface wireguard',
      'add listen-port=13231 name=wg0 private-key="cGFzc3dvcmQ9IGZha2U="',
      '/interface wireguard peers',
      'add allowed-address=10.9.0.2/32 interface=wg0 preshared-key="q\\"uo=ted" public-key="PUBKEY="',
      '/interface wifi security',
      'add authentication-types=wpa2-psk,wpa3-psk name=sec1 passphrase="two words"',
      '/ip ipsec identity',
      'add peer=office secret=ipsecS3cret',
      '/interface l2tp-server server',
      'set enabled=yes ipsec-secret=l2tpSecret use-ipsec=yes',
      '/snmp',
      'set enabled=yes trap-community=trapComm',
      '/snmp community',
      'set [ find default=yes ] name=publicRenamed',
      '/system script',
      'add comment="password=notASecret here" name=s1 source=":log info hi"',
      '/user',
      'add group=read name=viewer password=""',
    ].join('\n');
    const { text: masked, count } = maskRouterOsExport(text);
    const lines = masked.split('\n');
    expect(lines).toHaveLength(text.split('\n').length);
    expect(lines[2]).toBe(`add listen-port=13231 name=wg0 private-key=${M}`);
    expect(lines[4]).toBe(`add allowed-address=10.9.0.2/32 interface=wg0 preshared-key=${M} public-key="PUBKEY="`);
    expect(lines[6]).toBe(`add authentication-types=wpa2-psk,wpa3-psk name=sec1 passphrase=${M}`);
    expect(lines[8]).toBe(`add peer=office secret=${M}`);
    expect(lines[10]).toBe(`set enabled=yes ipsec-secret=${M} use-ipsec=yes`);
    expect(lines[12]).toBe(`set enabled=yes trap-community=${M}`);
    expect(lines[14]).toBe(`set [ find default=yes ] name=${M}`);
    // A secret-looking text inside another value is not a property; an empty password has nothing to hide.
    expect(lines[16]).toBe('add comment="password=notASecret here" name=s1 source=":log info hi"');
    expect(lines[18]).toBe('add group=read name=viewer password=""');
    expect(count).toBe(7);
  });

  it('masks a value wrapped onto the next line without changing the line count', () => {
    const text = [
      '/ppp secret',
      'add caller-id=48:A9:8A:11:22:33 name=a-customer-with-a-very-long-name password=\\',
      '    averylongpasswordthatwraps profile=default service=pppoe',
      'add name=b password=abc\\',
      '    def service=pppoe',
      '/ip address',
      'add address=192.0.2.1/24 \\',
      '    interface=ether1',
    ].join('\n');
    const masked = maskRouterOsExport(text).text.split('\n');
    expect(masked).toHaveLength(8);
    expect(masked[1]).toBe(`add caller-id=48:A9:8A:11:22:33 name=a-customer-with-a-very-long-name password=${M}\\`);
    expect(masked[2]).toBe('     profile=default service=pppoe');
    expect(masked[3]).toBe(`add name=b password=${M}\\`);
    expect(masked[4].trim()).toBe('service=pppoe');
    expect(masked.join('\n')).not.toMatch(/averylong|def service/);
    expect(masked[6]).toBe('add address=192.0.2.1/24 \\');
  });
});

describe('line diff', () => {
  const random = (seed: number) => {
    let x = seed;
    return () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x / 2147483648;
    };
  };

  it('always rebuilds both texts from the diff, with correct line numbers', () => {
    const rnd = random(42);
    for (let round = 0; round < 500; round++) {
      const a = Array.from({ length: Math.floor(rnd() * 30) }, () => `line ${Math.floor(rnd() * 6)}`);
      const b = [...a];
      for (let edits = Math.floor(rnd() * 6); edits > 0; edits--) {
        const at = Math.floor(rnd() * (b.length + 1));
        if (rnd() < 0.5 && b.length) b.splice(Math.min(at, b.length - 1), 1);
        else b.splice(at, 0, `new ${Math.floor(rnd() * 6)}`);
      }
      const lines = diffLines(a.join('\n'), b.join('\n'));
      const olds = lines.filter((l) => l.type !== 'added');
      const news = lines.filter((l) => l.type !== 'removed');
      expect(olds.map((l) => l.text)).toEqual(a);
      expect(news.map((l) => l.text)).toEqual(b);
      expect(olds.map((l) => l.old_line)).toEqual(a.map((_, i) => i + 1));
      expect(news.map((l) => l.new_line)).toEqual(b.map((_, i) => i + 1));
    }
  });

  it('finds a minimal change in a long configuration and groups it into hunks with context', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `add chain=forward comment=rule-${i}`);
    const b = [...a];
    b[100] = 'add chain=forward comment=rule-100 disabled=yes';
    b.splice(2500, 0, 'add chain=forward comment=inserted');
    const lines = diffLines(a.join('\n'), `${b.join('\n')}\n`);
    expect(lines.filter((l) => l.type === 'removed').map((l) => l.old_line)).toEqual([101]);
    expect(lines.filter((l) => l.type === 'added').map((l) => l.new_line)).toEqual([101, 2501]);
    const hunks = toHunks(lines, 2);
    expect(hunks).toHaveLength(2);
    expect(hunks[0]).toMatchObject({ old_start: 99, old_lines: 5, new_start: 99, new_lines: 5 });
    expect(hunks[0].lines.map((l) => l.type)).toEqual(['context', 'context', 'removed', 'added', 'context', 'context']);
    expect(hunks[1]).toMatchObject({ old_start: 2499, old_lines: 4, new_start: 2499, new_lines: 5 });
    expect(toHunks(diffLines('same\n', 'same'), 3)).toEqual([]);
  });
});
