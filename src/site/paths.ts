/** Public site pages served by the light site entry (no Refine, no antd). */
export const POLICY_TYPES = ['privacy-policy', 'terms-condition', 'refund-policy'] as const;
export const SITE_PATHS = ['/', '/about', '/contact', '/plans', ...POLICY_TYPES.map((p) => `/${p}`)];
