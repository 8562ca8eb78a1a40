/**
 * Where the portal is installed, found from this module's own location by walking up to the folder whose
 * package.json is the portal's. The same answer whether the server runs from its TypeScript sources (tsx, tests)
 * or from the compiled bundle in build/server/ (scripts/build-server.mjs), where every module shares the bundle's
 * import.meta.url and relative URLs would point elsewhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'isp-portal')
      return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`The portal's package.json was not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** The portal's folder (package.json, server/, dist/, node_modules/). */
export const PROJECT_ROOT = findRoot();

/** A path inside the portal's folder. */
export const projectPath = (...parts: string[]): string => join(PROJECT_ROOT, ...parts);

/** The portal's version (package.json). */
export const VERSION = (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }).version;

/** Whether this process runs the compiled bundle (build/server/*.mjs) rather than the TypeScript sources. */
export const COMPILED = !fileURLToPath(import.meta.url).endsWith('.ts');
