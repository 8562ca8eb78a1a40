/**
 * Issue 35: the lists that name resources are derived from their declarations, so a new resource (the scaffold's
 * or a contributor's) needs no edit to them: the audit trail's target types and their labels.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerResourceAccess } from '../../contract/roles';
import { auditTargetTypeList, targetTypeLabel } from '../../resources/audit/ui';
import { registerResource } from '../../resources/registry';
import { overrideMessages } from '../../src/i18n';

const ROOT = process.cwd();

/** The target types the server's code records: `targetType: 'x'` (audit entries, crudModule options) and IPAM's audited(…, 'x'). */
function recordedTargetTypes(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        const code = readFileSync(path, 'utf8');
        for (const m of code.matchAll(/targetType: '([a-z_-]+)'|audited\(audit, '([a-z_-]+)'/g))
          found.add(m[1] ?? m[2]);
      }
    }
  };
  walk(join(ROOT, 'server'));
  return [...found].sort();
}

describe('the audit trail target types', () => {
  it('offer every type the server records, each with a label of its own', () => {
    const recorded = recordedTargetTypes();
    // The scan itself finds the server's types (plans, users, IP networks...), so an empty list cannot pass.
    expect(recorded).toEqual(expect.arrayContaining(['plan', 'user', 'ip_network', 'voucher_batch']));
    const declared = auditTargetTypeList();
    expect(recorded.filter((type) => !declared.includes(type))).toEqual([]);
    for (const type of declared) expect(targetTypeLabel(type), type).not.toBe(type);
    expect(targetTypeLabel('ip_network')).toBe('IP network');
  });

  it('gain a resource declared later, under its crudModule name or its own auditTargets, labelled by its record name', () => {
    overrideMessages({
      'fixtureBulletins.title': 'Bulletins',
      'fixtureBulletins.singular': 'Bulletin',
      'fixtureMemos.title': 'Memos',
      'fixtureMemos.singular': 'Memo',
    });
    const undo = [
      registerResourceAccess('fixture-bulletins', {
        route: '/dashboard/fixture-bulletins',
        api: '/fixture-bulletins',
        list: ['admin'],
      }),
      registerResource({
        name: 'fixture-bulletins',
        titleKey: 'fixtureBulletins.title',
        singularKey: 'fixtureBulletins.singular',
        fields: [],
      }),
      registerResourceAccess('fixture-memos', { route: '/dashboard/fixture-memos', screen: ['admin'] }),
      registerResource({
        name: 'fixture-memos',
        titleKey: 'fixtureMemos.title',
        singularKey: 'fixtureMemos.singular',
        auditTargets: ['memo'],
        fields: [],
      }),
    ];
    try {
      expect(auditTargetTypeList()).toEqual(expect.arrayContaining(['fixture-bulletins', 'memo']));
      expect(auditTargetTypeList()).not.toContain('fixture-memos');
      expect(targetTypeLabel('fixture-bulletins')).toBe('Bulletin');
      expect(targetTypeLabel('memo')).toBe('Memo');
    } finally {
      for (const u of undo.reverse()) u();
    }
    expect(auditTargetTypeList()).not.toContain('fixture-bulletins');
    expect(targetTypeLabel('memo')).toBe('memo');
  });
});
