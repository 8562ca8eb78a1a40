/**
 * axe-core in the browser tests: the engine is evaluated in the page through the DevTools protocol (the
 * portal's Content-Security-Policy refuses inline scripts, and evaluation is not a script element), then run
 * on the whole document against WCAG 2.1 A and AA.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

interface AxeResult {
  violations: {
    id: string;
    impact?: string | null;
    help: string;
    nodes: { target: unknown[]; failureSummary?: string }[];
  }[];
}

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe's best-practice rules for a page's structure (issue 34): one h1, one main landmark, all content in
 * landmarks, headings in order and never empty.
 */
export const STRUCTURE_RULES = [
  'page-has-heading-one',
  'landmark-one-main',
  'region',
  'heading-order',
  'empty-heading',
] as const;

/** The rules a change of colours alone (dark mode) can break: the others see the same page. */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'] as const;

/**
 * One axe run on the page as it is now (an empty list when it passes), in the whole document or only in the
 * part `include` (a CSS selector) picks: the WCAG 2.1 A/AA rules (`'wcag'`), those and the structure rules in
 * the same run (`'wcag+structure'`, one pass over the page instead of two), or only the colour rules (`'colour'`).
 */
export async function axeViolations(
  page: Page,
  include?: string,
  rules: 'wcag' | 'wcag+structure' | 'colour' = 'wcag',
): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ selector, tags, extra, colourOnly }) => {
      type Axe = {
        run: (context: unknown, options: unknown) => Promise<AxeResult>;
        getRules: (tags?: string[]) => { ruleId: string; tags: string[] }[];
      };
      const axe = (window as unknown as { axe: Axe }).axe;
      // The rules a tag run would pick: axe leaves its experimental and deprecated rules out of a tag run.
      const tagged = axe
        .getRules(tags)
        .filter((r) => !r.tags.includes('experimental') && !r.tags.includes('deprecated'));
      const ids = colourOnly ? extra : [...new Set([...tagged.map((r) => r.ruleId), ...extra])];
      const result = await axe.run(selector ?? document, {
        runOnly: { type: 'rule', values: ids },
        resultTypes: ['violations'],
      });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        nodes: v.nodes.map(
          (n) => `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`,
        ),
      }));
    },
    {
      selector: include,
      tags: WCAG_TAGS,
      extra: rules === 'colour' ? [...COLOUR_RULES] : rules === 'wcag+structure' ? [...STRUCTURE_RULES] : [],
      colourOnly: rules === 'colour',
    },
  );
}

/** Whether a violation is one of the structure rules (rather than WCAG's). */
export const isStructureRule = (id: string) => (STRUCTURE_RULES as readonly string[]).includes(id);

/** Nothing wider than the viewport: the page does not scroll sideways (tables scroll inside their own box). */
export async function overflowsViewport(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/**
 * The visible controls (links, buttons, fields, switches…) that lie beyond the viewport's end edge (the right one;
 * the left one in a right-to-left page), with the page and every scrolling box at their start: a control inside a table that scrolls in its own box counts too
 * (on a phone a person does not find it). Each as "tag 'name'".
 */
export async function controlsBeyondViewport(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, [role="switch"], [role="button"], [role="checkbox"], [role="combobox"]';
    const found: string[] = [];
    const rtl = document.documentElement.dir === 'rtl';
    for (const el of document.querySelectorAll(selector)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
      if (el.closest('[aria-hidden="true"], [inert]')) continue;
      // Where the control would be with every box that scrolls it at its start (in a right-to-left page a box's
      // scrollLeft is 0 at its start and negative once scrolled, and what lies beyond the left edge is lost).
      let shift = 0;
      for (let p = el.parentElement; p; p = p.parentElement) shift += p.scrollLeft;
      if (rtl ? r.left + shift >= -1 : r.right + shift <= window.innerWidth + 1) continue;
      const name = (
        el.getAttribute('aria-label') ||
        el.textContent ||
        (el as HTMLInputElement).name ||
        el.getAttribute('placeholder') ||
        ''
      )
        .trim()
        .replace(/\s+/g, ' ')
        .slice(0, 40);
      found.push(`${el.tagName.toLowerCase()} "${name}"`);
    }
    return [...new Set(found)];
  });
}
