import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { build, defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { resourceMeta } from './scripts/vite-resource-meta';

const apiPort = Number(process.env.API_PORT ?? 3001);

/**
 * Libraries reached only through exports we never use, which the bundler cannot drop because their packages
 * do not declare `"sideEffects": false` (evaluating them has no effect beyond defining their exports):
 * @refinedev/antd's MarkdownField (react-markdown, remark, micromark, mdast/hast, property-information, ~100 KB)
 * and @refinedev/core's CSV import/export (papaparse). Saying so keeps them out of the staff dashboard's code;
 * if one of those exports is ever used, its library is bundled as usual.
 */
const UNUSED_WITHOUT_SIDE_EFFECTS =
  /[\\/]node_modules[\\/](react-markdown|remark-[^\\/]+|micromark[^\\/]*|mdast-[^\\/]+|hast-[^\\/]+|unist-[^\\/]+|property-information|vfile[^\\/]*|unified|papaparse)[\\/]/;
const treeshake = { moduleSideEffects: (id: string) => !UNUSED_WITHOUT_SIDE_EFFECTS.test(id) };

/** Text files worth compressing: smaller ones gain less than the extra request headers cost. */
const COMPRESSIBLE = /\.(js|mjs|css|svg|html|json|txt)$/;
const MIN_BYTES = 1024;

/**
 * Writes `x.br` and `x.gz` next to each text file of the build, for @fastify/static's `preCompressed` (the
 * server sends them to browsers that accept them; see server/plugins/static.ts). Hand-written on node:zlib
 * because the maintained plugin (vite-plugin-compression2) declares neither the Vite majors nor the Node
 * versions it supports, and this is a dozen lines without a dependency. Maximum levels: it runs once per build.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? (e.name === '.vite' ? [] : files(join(dir, e.name))) : [join(dir, e.name)],
    );
  return {
    name: 'isp-portal:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const targets = files(outDir).filter((f) => COMPRESSIBLE.test(f) && statSync(f).size > MIN_BYTES);
      await Promise.all(
        targets.map(async (file) => {
          const raw = readFileSync(file);
          const [br, gzipped] = await Promise.all([
            brotli(raw, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
            gz(raw, { level: zlib.Z_BEST_COMPRESSION }),
          ]);
          // A compressed copy that is not smaller would only cost the server a look-up.
          if (br.length < raw.length) writeFileSync(`${file}.br`, br);
          if (gzipped.length < raw.length) writeFileSync(`${file}.gz`, gzipped);
        }),
      );
    },
  };
}

/**
 * The entry's own stylesheet (src/styles.css, under 2 KB) written into index.html as a `<style>` element instead of
 * a `<link>`: a linked stylesheet blocks the first paint until it has arrived, one more round trip on a phone
 * before the start-up splash shows (Lighthouse counted ~160 ms on slow 4G, and with the page's scripts arriving in
 * the same round trip the first paint fell after their evaluation: FCP 1.7 s where a bare page paints at 0.6 s).
 * The CSP allows inline styles already (antd writes its own). Hand-written: Vite has no option for it, and the
 * plugins that inline critical CSS (beasties) parse every page's DOM to pick rules, which a 2 KB file does not need.
 * The file stays in the build (the manifest names it); the browser no longer asks for it.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'isp-portal:inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        return html.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g, (link, file: string) => {
          const asset = ctx.bundle?.[file];
          if (asset?.type !== 'asset') return link;
          return `<style>${String(asset.source).replace(/<\/style/gi, '<\\/style')}</style>`;
        });
      },
    },
  };
}

/**
 * The portal shell, src/App.tsx and what it uses statically, as one group (cut in three chunks by
 * `portalChunkName` below). Every portal route loads the whole
 * shell before its own code, but the bundler cannot tell: it cut the shell into some thirty chunks by which
 * lazy screens share each module, and thirty small files compress ~20 KB worse than one (bench:web, issue 15).
 *
 * Which modules the shell really uses (after tree-shaking: `import { Button } from 'antd'` reaches every antd
 * component through the barrel, but only Button is kept) is known only from a bundle, so before the build a
 * bundle of src/App.tsx alone is made in memory (~3 s) and its statically loaded modules become the `portal`
 * group. Left out: what the entry chunk already has (react, the router, the HTTP client), and App.tsx itself,
 * which stays the small chunk the entry's `import('./App')` loads (and which imports the shell).
 */
const APP = resolve(import.meta.dirname, 'src/App.tsx');
const SITE = resolve(import.meta.dirname, 'src/site/SiteApp.tsx');
const portalShell = new Set<string>();
const entryModules = new Set<string>();
/** What the public site loads statically: a module both use (e.g. contract/money.ts) stays out of the portal group. */
const siteModules = new Set<string>();
function portalShellChunk(): Plugin {
  return {
    name: 'isp-portal:portal-shell',
    apply: 'build',
    async buildStart() {
      const result = await build({
        configFile: false,
        root: import.meta.dirname,
        logLevel: 'silent',
        plugins: [react(), resourceMeta()],
        build: {
          write: false,
          minify: false,
          copyPublicDir: false,
          rolldownOptions: { input: APP, treeshake, preserveEntrySignatures: 'strict' },
        },
      });
      const chunks = (Array.isArray(result) ? result : [result])
        .flatMap((r) => ('output' in r ? r.output : []))
        .filter((o) => o.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const pending = chunks.filter((c) => c.isEntry).map((c) => c.fileName);
      const loaded = new Set<string>();
      while (pending.length) {
        const file = pending.pop()!;
        if (loaded.has(file)) continue;
        loaded.add(file);
        pending.push(...(byFile.get(file)?.imports ?? []));
      }
      portalShell.clear();
      for (const file of loaded) for (const id of Object.keys(byFile.get(file)!.modules)) portalShell.add(id);
    },
    buildEnd() {
      // The entry's static imports, followed through barrels too: a module that might be in the entry chunk is
      // left to the bundler rather than moved out of it.
      const reach = (into: Set<string>, from: string[]) => {
        into.clear();
        const pending = [...from];
        while (pending.length) {
          const id = pending.pop()!;
          if (into.has(id)) continue;
          into.add(id);
          pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
      };
      reach(
        entryModules,
        [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry),
      );
      reach(siteModules, this.getModuleInfo(SITE) ? [SITE] : []);
    },
  };
}

/**
 * The portal shell in three chunks, evaluated one after the other in separate tasks (src/main.tsx `loadPortalApp`,
 * issue 34: one chunk was one ~40 ms task on a desktop CPU, four times that on Lighthouse's phone): `portal-lib`
 * (Refine's core, TanStack Query and what they use: the libraries below), `portal-antd` (the other libraries: antd and
 * its rc-* components, styles, icons, dates) and `portal` (our shell, with Refine's antd and router bindings, which
 * use both). The libraries below use nothing from antd.
 */
const PORTAL_LIB =
  /[\\/]node_modules[\\/](@refinedev[\\/](core|devtools-internal)|@tanstack|lodash-es|qs|side-channel[^\\/]*|get-intrinsic|es-errors|es-object-atoms|es-define-property|has-symbols|has-tostringtag|gopd|function-bind|call-bind[^\\/]*|call-bound|dunder-proto|get-proto|math-intrinsics|object-inspect|hasown|pluralize|error-stack-parser|stackframe|warn-once)[\\/]/;
const OUR_BINDINGS = /[\\/]node_modules[\\/]@refinedev[\\/](antd|react-router)[\\/]/;
function portalChunkName(id: string): string {
  if (!/[\\/]node_modules[\\/]|^\0|__vite-browser-external/.test(id) || OUR_BINDINGS.test(id)) return 'portal';
  return PORTAL_LIB.test(id) || id.includes('__vite-browser-external') ? 'portal-lib' : 'portal-antd';
}

/**
 * The first stage's import (src/layout/portal-stages/antd.ts) preloads every chunk src/App.tsx needs, not only its
 * own, so the shell's three chunks download together and the later stages cost no round trip. The bundle is kept
 * from generateBundle, which runs before Vite writes the preload lists.
 */
const FIRST_STAGE = resolve(import.meta.dirname, 'src/layout/portal-stages/antd.ts');
let outputBundle: Rolldown.OutputBundle | undefined;
function keepBundle(): Plugin {
  return {
    name: 'isp-portal:keep-bundle',
    apply: 'build',
    generateBundle(_options, bundle) {
      outputBundle = bundle;
    },
  };
}
function withShellChunks(file: string, deps: string[]): string[] {
  const chunks = Object.values(outputBundle ?? {}).filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
  if (chunks.find((c) => c.fileName === file)?.facadeModuleId !== FIRST_STAGE) return deps;
  const app = chunks.find((c) => c.facadeModuleId === APP);
  if (!app) return deps;
  const files = new Set(deps);
  const pending = [app.fileName];
  while (pending.length) {
    const name = pending.pop()!;
    if (files.has(name)) continue;
    files.add(name);
    pending.push(...(chunks.find((c) => c.fileName === name)?.imports ?? []));
  }
  return [...files];
}

export default defineConfig({
  plugins: [react(), resourceMeta(), precompress(), portalShellChunk(), inlineEntryCss(), keepBundle()],
  server: {
    port: Number(process.env.PORT ?? 5173),
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // scripts/bench-web.mjs reads the manifest to know which chunks each measured route downloads.
    manifest: true,
    chunkSizeWarningLimit: 2500,
    modulePreload: { resolveDependencies: withShellChunks },
    rolldownOptions: {
      treeshake,
      output: {
        codeSplitting: {
          // Without its dependencies: those outside the shell are in the entry chunk, loaded first.
          groups: [
            {
              name: portalChunkName,
              debugName: 'portal shell',
              test: (id) => portalShell.has(id) && !entryModules.has(id) && !siteModules.has(id) && id !== APP,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
