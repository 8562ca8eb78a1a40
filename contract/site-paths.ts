import type { PolicyType } from './schemas/settings';

/**
 * The public site's pages (served by the light site entry: no Refine, no antd) — also what robots.txt and
 * sitemap.xml list (server/plugins/site-index.ts). The policy list mirrors contract/schemas/settings.ts
 * POLICY_TYPES without importing zod into the public bundle; the type keeps them equal.
 */
export const POLICY_TYPES = [
  'privacy-policy',
  'terms-condition',
  'refund-policy',
] as const satisfies readonly PolicyType[];
export const SITE_PATHS = ['/', '/about', '/contact', '/plans', '/status', ...POLICY_TYPES.map((p) => `/${p}`)];
