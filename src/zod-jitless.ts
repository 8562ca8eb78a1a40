/**
 * The portal's Content-Security-Policy has no 'unsafe-eval' (server/plugins/security-headers.ts). zod 4
 * compiles object parsers with `Function` after probing whether eval is allowed, and it probes as soon as an
 * object schema is built; in the browser the probe alone is reported as a CSP violation. Validating without
 * the compiled fast path is plenty for forms, so the page tells zod not to try, before any schema module
 * loads. zod reads this object from globalThis (it keeps one that is already there), so setting it here
 * needs no import of zod and adds nothing to the public site's bundle.
 */
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };

export {};
