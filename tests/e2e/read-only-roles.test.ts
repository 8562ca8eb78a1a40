/**
 * Issue 35, in real Chromium against the built portal on the living demo: for every declared resource
 * (resources/registry.ts) whose role-matrix entry says who writes it (contract/resource-access.ts: the endpoints of
 * its create, edit and delete), each role that may open its list but may do none of those writes opens the list
 * and a record page (its first row's, when it has rows) and is offered no Create, Edit or Delete control. A read-only role used to be offered Delete
 * on every row and on the record page (its access followed the list screen) and got 403 when it clicked.
 *
 * The cases come from the declarations and the matrix, not a hand list: a new resource with a reader is checked
 * as soon as it is declared. A writer of each resource, where one may open its list, sees a write control on
 * the same pages, so the check itself is shown to find one.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROLES, actionAudience, allows, canAccessRoute, type Role } from '../../contract/roles';
import { resourceEntries } from '../../resources/registry';
import { usePortal } from '../helpers/browser';

const portal = usePortal({ DEMO_DATA: 'full' });

const EMAIL: Record<Role, string> = {
  user: 'customer@isp.local',
  admin: 'admin@isp.local',
  super_admin: 'superadmin@isp.local',
  support: 'support@isp.local',
  technician: 'technician@isp.local',
  billing: 'billing@isp.local',
};

const WRITES = ['create', 'edit', 'delete'] as const;
/** A control that creates, edits or deletes, by its accessible name (an icon-only button is named by its icon). */
const WRITE_CONTROL = /^(create|add|new|edit|delete|remove)\b/i;

interface Case {
  resource: string;
  list: string;
  readers: Role[];
  writer: Role | undefined;
}

const CASES: Case[] = resourceEntries().flatMap(({ decl, paths }) => {
  const matrix = decl.access ?? decl.name;
  const writes = WRITES.map((a) => actionAudience(matrix, a)).filter((a) => a !== undefined);
  if (writes.length === 0) return [];
  const opens = ROLES.filter((role) => canAccessRoute(role, paths.list));
  const writes_ = (role: Role) => writes.some((a) => allows(a, role));
  const readers = opens.filter((role) => !writes_(role));
  return readers.length ? [{ resource: decl.name, list: paths.list, readers, writer: opens.find(writes_) }] : [];
});

/** The accessible names of the visible buttons and links in the page's main area that create, edit or delete. */
async function writeControls(page: Page): Promise<string[]> {
  const names = await page.evaluate(() => {
    const main = document.getElementById('main');
    if (!main) return [];
    return (
      [...main.querySelectorAll<HTMLElement>('button, a[href], [role="button"], [role="link"]')]
        .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
        // Named by its aria-label, else its text, else (an icon-only button) its icon's name.
        .map(
          (el) =>
            (el.getAttribute('aria-label') ?? el.innerText).trim() ||
            (el.querySelector('[role="img"][aria-label]')?.getAttribute('aria-label') ?? ''),
        )
    );
  });
  return names.filter((name) => WRITE_CONTROL.test(name));
}

/**
 * Waits until the main area shows what it loaded: visible text, no spinner or skeleton, and the same text and
 * buttons over half a second (the record's data and the access answers have come in).
 */
async function settled(page: Page): Promise<void> {
  let last = '';
  const deadline = Date.now() + 30_000;
  for (;;) {
    const now = await page.evaluate(() => {
      const main = document.getElementById('main');
      if (!main || main.querySelector('.ant-spin-spinning, .ant-skeleton-active')) return '';
      return `${main.innerText.trim()}|${main.querySelectorAll('button, a[href]').length}`;
    });
    if (now && !now.startsWith('|') && now === last) return;
    if (Date.now() > deadline) throw new Error(`The page did not settle: ${page.url()}`);
    last = now;
    await page.waitForTimeout(500);
  }
}

/** Opens the list, then its first row's record page (none when the list is empty); the write controls on each. */
async function visit(page: Page, c: Case): Promise<{ list: string[]; record: string[] }> {
  await portal.open(page, c.list);
  const show = page
    .locator('#main tbody')
    .getByRole('button', { name: /^show\b/i })
    .first();
  await page
    .locator('#main tbody')
    .getByRole('button', { name: /^show\b/i })
    .or(page.locator('#main .ant-empty'))
    .first()
    .waitFor({ timeout: 30_000 });
  await settled(page);
  const list = await writeControls(page);
  if (!(await show.isVisible())) return { list, record: [] };
  await show.click();
  await page.waitForURL((url) => url.pathname !== c.list);
  await settled(page);
  return { list, record: await writeControls(page) };
}

describe('a read-only role is offered no write control on any declared resource', () => {
  it('the declarations give at least one resource with a reader', () => {
    // On the shipped resources: support on invoices and IP networks, the technician on devices.
    expect(CASES.map((c) => c.resource)).toEqual(expect.arrayContaining(['invoices', 'ip-networks', 'devices']));
  });

  const readers = [...new Set(CASES.flatMap((c) => c.readers))];
  for (const role of readers) {
    it(`${role}: no Create, Edit or Delete on the list and a record of ${CASES.filter((c) => c.readers.includes(role))
      .map((c) => c.resource)
      .join(', ')}`, async () => {
      const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
      await portal.signIn(page, EMAIL[role]);
      for (const c of CASES.filter((x) => x.readers.includes(role))) {
        const seen = await visit(page, c);
        expect({ resource: c.resource, role, ...seen }).toEqual({ resource: c.resource, role, list: [], record: [] });
      }
      await page.close();
    });
  }

  it('a writer sees write controls on the same pages (the check finds them)', async () => {
    const withWriter = CASES.filter((c) => c.writer);
    expect(withWriter.length).toBeGreaterThan(0);
    for (const writer of [...new Set(withWriter.map((c) => c.writer!))]) {
      const page = await portal.browser.newPage({ viewport: { width: 1366, height: 900 } });
      await portal.signIn(page, EMAIL[writer]);
      for (const c of withWriter.filter((x) => x.writer === writer)) {
        const seen = await visit(page, c);
        expect({ resource: c.resource, writer, list: seen.list.length > 0, record: seen.record.length > 0 }).toEqual({
          resource: c.resource,
          writer,
          list: true,
          record: true,
        });
      }
      await page.close();
    }
  });
});
