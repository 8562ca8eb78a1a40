/**
 * The screen matrix in another language (issue 37): the public site and every route of a customer and of an admin
 * (whose screens are every staff screen but the super admin's few), at 390×844 and/or 1366×800 as each language's
 * plan says (tests/e2e/screens-*-language.test.ts; CI's 35 minutes do not fit every role at every size in every
 * language), in light mode, with the language chosen as a visitor chooses it (the switcher's stored choice). At
 * each size:
 * - the page says its language and direction (`<html lang dir>`: Arabic right to left);
 * - the document does not scroll sideways, the header's controls lie inside the viewport, and no visible control
 *   lies beyond the end edge (the left one in Arabic), even inside a box that scrolls;
 * - axe-core's WCAG 2.1 A and AA rules find nothing, where the plan says (the structure and dark-mode rules do not
 *   depend on the language: the English matrix checks them, tests/helpers/screens-matrix.ts);
 * - in the pseudo-locale (src/i18n/index.ts: every translated text shown as ⟦ṫḗẋṫ⟧), no text on the screen is
 *   plain English that came neither from a translation nor from the data: see `untranslated` below.
 * A screenshot of each route at each size goes to test-results/screens/<language>-<who>/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import enUS from 'antd/es/locale/en_US';
import { LANGUAGES } from '../../contract/languages';
import type { Role } from '../../contract/roles';
import { axeViolations, controlsBeyondViewport, overflowsViewport } from './axe';
import { DEMO_PASSWORD } from './browser';
import {
  DEMO,
  headerProblems,
  openScreen,
  publicRoutes,
  routesOf,
  settled,
  slot,
  slug,
  trackRequests,
  useMatrixPortal,
} from './screens-matrix';

const PHONE = { width: 390, height: 844 } as const;
const DESKTOP = { width: 1366, height: 800 } as const;
type Size = typeof PHONE | typeof DESKTOP;
const SIZES = { 390: PHONE, 1366: DESKTOP } as const;

/** What one language's run covers: the public site and each role, each at its sizes; axe or not. */
export interface LanguagePlan {
  public: readonly (390 | 1366)[];
  /** `details: false`: the menu's screens and create pages, without the records' show and edit pages. */
  roles: ReadonlyArray<{ role: Role; sizes: readonly (390 | 1366)[]; details?: boolean }>;
  axe: boolean;
}

/** The sizes in the order that saves a resize: the route before ended at the last size of its list. */
function ordered(sizes: readonly (390 | 1366)[], i: number): Size[] {
  const list = sizes.map((w) => SIZES[w]);
  return i % 2 ? list.reverse() : list;
}
const SHOTS = join(process.cwd(), 'test-results', 'screens');
export const PSEUDO = 'en-XA';

/** Words of two letters or more, as the pseudo-locale check reads a text. */
const WORDS = /[A-Za-z][A-Za-z'’]+/g;

function wordsOf(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') for (const w of value.match(WORDS) ?? []) into.add(w);
  else if (Array.isArray(value)) for (const v of value) wordsOf(v, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) wordsOf(v, into);
}

/**
 * Words that are English on purpose in every language: antd's own texts in its English pack (the pseudo-locale
 * runs with it) and the two it writes without one (rc-input-number's step buttons are labelled "Increase Value" and
 * "Decrease Value" in every language, StepHandler.js; not ours to translate), month and day names of dates written in
 * English, the languages' own names in the switchers, units (SI and data rates) and protocols.
 */
function allowedWords(): Set<string> {
  const words = new Set<string>();
  wordsOf(enUS, words);
  for (const l of LANGUAGES) wordsOf(l.name, words);
  for (let m = 0; m < 12; m++)
    for (const month of ['long', 'short'] as const)
      wordsOf(new Date(2026, m, 1).toLocaleString('en', { month }), words);
  for (let d = 0; d < 7; d++)
    for (const weekday of ['long', 'short'] as const)
      wordsOf(new Date(2026, 10, 1 + d).toLocaleString('en', { weekday }), words);
  for (const w of ['Increase', 'Decrease', 'Value']) words.add(w);
  for (const w of ['AM', 'PM', 'Mbps', 'Kbps', 'Gbps', 'MB', 'GB', 'TB', 'KB', 'ms', 'IP', 'IPv', 'MAC', 'PPPoE'])
    words.add(w);
  for (const w of ['bit', 'kbit', 'Mbit', 'Gbit', 'Tbit', 'http', 'https']) words.add(w);
  return words;
}

/**
 * The words the page received as data: every string of every JSON answer of the API and of the settings the
 * server wrote into the page. A text made of these (a plan's name, a customer's address) is data, not a text to
 * translate.
 */
function collectData(page: Page, into: Set<string>): void {
  page.on('response', (res: Response) => {
    if (!res.url().includes('/api/') || !(res.headers()['content-type'] ?? '').includes('json')) return;
    res.json().then(
      (body: unknown) => wordsOf(body, into),
      () => {},
    );
  });
}

/**
 * Texts on the screen (text nodes, placeholders, accessible names and titles of controls) with a word that is
 * neither in a translated text (⟦…⟧) nor in the data nor allowed: English that skipped translate().
 */
async function untranslated(page: Page, known: Set<string>): Promise<string[]> {
  const injected = await page.evaluate(() => document.getElementById('portal-settings')?.textContent ?? '');
  if (injected) wordsOf(JSON.parse(injected), known);
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && !el.closest('[aria-hidden="true"]');
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      const text = n.textContent?.trim();
      if (!text || !parent || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName) || !visible(parent)) continue;
      out.push(text);
    }
    for (const el of document.querySelectorAll('[placeholder], [aria-label], [title]')) {
      if (!visible(el) || el.closest('.anticon') || el.classList.contains('anticon')) continue;
      for (const a of ['placeholder', 'aria-label', 'title']) {
        const v = el.getAttribute(a)?.trim();
        if (v) out.push(v);
      }
    }
    return out;
  });
  const problems = new Set<string>();
  for (const text of texts) {
    // A translated text is marked; a text node inside one (a link in a sentence) is a piece of it.
    const unmarked = text.replace(/⟦[^⟧]*⟧/g, ' ').replace(/⟦[^⟧]*$|^[^⟦]*⟧/g, ' ');
    const strange = (unmarked.match(/[A-Za-z][A-Za-z'’]+/g) ?? []).filter((w) => !known.has(w));
    if (strange.length) problems.add(`"${text.slice(0, 80)}" (${strange.slice(0, 4).join(', ')})`);
  }
  return [...problems];
}

/** One route at both sizes: language and direction, layout, axe, the pseudo-locale's check; a screenshot each. */
async function checkRoute(
  page: Page,
  language: string,
  who: string,
  route: string,
  sizes: readonly Size[],
  { known, axe }: { known: Set<string> | null; axe: boolean },
): Promise<string[]> {
  const problems: string[] = [];
  const dir = LANGUAGES.find((l) => l.code === language)?.dir ?? 'ltr';
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.waitForTimeout(50);
    await settled(page);
    const at = `${language} ${who} ${route} ${size.width}×${size.height}`;
    const html = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      dir: document.documentElement.dir,
    }));
    if (html.lang !== language || html.dir !== dir)
      problems.push(`${at}: <html lang="${html.lang}" dir="${html.dir}">, expected lang="${language}" dir="${dir}"`);
    if (await overflowsViewport(page))
      await page
        .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, undefined, { timeout: 1_500 })
        .catch(() => {});
    if (await overflowsViewport(page)) problems.push(`${at}: scrolls sideways`);
    for (const p of await headerProblems(page)) problems.push(`${at}: ${p}`);
    for (const c of await controlsBeyondViewport(page))
      problems.push(`${at}: control beyond the viewport's edge: ${c}`);
    if (axe)
      for (const v of await axeViolations(page, undefined, 'wcag'))
        problems.push(`${at}: axe ${v.id} (${v.impact}): ${v.help}\n      ${v.nodes.slice(0, 4).join('\n      ')}`);
    if (known) {
      // The check means something only where the pseudo-locale is on: the screen shows marked texts.
      if (!(await page.evaluate(() => document.body.innerText.includes('⟦'))))
        problems.push(`${at}: no text in the pseudo-locale on the screen`);
      for (const t of await untranslated(page, known)) problems.push(`${at}: not translated: ${t}`);
    }
    const shots = join(SHOTS, `${language}-${who}`);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({
      path: join(shots, `${slug(route)}-${size.width}x${size.height}.jpeg`),
      type: 'jpeg',
      quality: 60,
    });
  }
  return problems;
}

/** Registers the matrix in one language for the public site and these roles, on the calling file's own portal. */
export function languageMatrix(language: string, plan: LanguagePlan): void {
  const matrix = useMatrixPortal();
  const name =
    language === PSEUDO ? 'the pseudo-locale' : (LANGUAGES.find((l) => l.code === language)?.name ?? language);
  describe.concurrent(`every screen in ${name}`, () => {
    /** A browser that chose the language (as the switcher stores it), in light mode, with the data it receives noted. */
    async function newPage(known: Set<string> | null): Promise<Page> {
      const context = await matrix.portal.browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
      await context.addInitScript((code) => {
        localStorage.setItem('isp.language', code);
        localStorage.setItem('color_mode', 'light');
      }, language);
      const page = await context.newPage();
      trackRequests(page);
      if (known) collectData(page, known);
      return page;
    }

    /** Opens each route in turn and checks it at the sizes given; every problem found. */
    async function checkRoutes(
      page: Page,
      who: string,
      routes: readonly string[],
      sizes: readonly (390 | 1366)[],
      known: Set<string> | null,
    ): Promise<string[]> {
      const problems: string[] = [];
      for (const [i, route] of routes.entries()) {
        await openScreen(page, route);
        problems.push(...(await checkRoute(page, language, who, route, ordered(sizes, i), { known, axe: plan.axe })));
      }
      return problems;
    }

    it(
      `the public site and the sign-in pages at ${plan.public.join(' and ')} px`,
      async () => {
        await slot(async () => {
          const known = language === PSEUDO ? allowedWords() : null;
          const page = await newPage(known);
          const problems: string[] = [];
          try {
            problems.push(...(await checkRoutes(page, 'public', await publicRoutes(), plan.public, known)));
          } finally {
            await page.context().close();
          }
          expect(problems, problems.join('\n')).toEqual([]);
        });
      },
      20 * 60_000,
    );

    for (const { role, sizes, details = true } of plan.roles)
      it(
        `${role}: ${details ? 'every route' : "the menu's screens and create pages"} at ${sizes.join(' and ')} px`,
        async () => {
          await slot(async () => {
            const known = language === PSEUDO ? allowedWords() : null;
            const page = await newPage(known);
            const problems: string[] = [];
            try {
              // The sign-in form's labels are in the language: its fields by their names instead.
              await page.goto(`${matrix.portal.url}/login`);
              await page.getByTestId('login-page').waitFor();
              await page.locator('input#email').fill(DEMO[role]);
              await page.locator('input#password').fill(DEMO_PASSWORD);
              await page.locator('button[type="submit"]').click();
              await page.waitForURL(`${matrix.portal.url}/dashboard`);
              await page.mouse.move(0, 0);
              await settled(page);
              const routes = await routesOf(page, role, { details });
              expect(routes.length).toBeGreaterThan(2);
              problems.push(...(await checkRoutes(page, role, routes, sizes, known)));
            } finally {
              await page.context().close();
            }
            expect(problems, problems.join('\n')).toEqual([]);
          });
        },
        20 * 60_000,
      );
  });
}
