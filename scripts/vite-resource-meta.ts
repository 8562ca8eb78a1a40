/**
 * `resources/<folder>/resource.ts?meta`: the light part of a resource declaration (issue 20).
 *
 * A resource is declared once, in one file (`export const x = defineResource({...})`), but the portal's shell
 * needs only a few of its keys at start-up (name, access, menu, routes, pages, which generic pages exist) to draw
 * the menu and register the routes, while the rest (fields with their zod schemas, renderers, custom inputs)
 * belongs to the resource's own pages, loaded on first use. Importing every declaration whole would put every
 * resource's schemas and components in the shell (bench:web's budgets). This plugin serves the `?meta` import of
 * a declaration file as a module with only the light keys of each `defineResource({...})` call in it, and only
 * the imports those keys use (e.g. the menu icon). Hand-written because it is a build step of our own convention
 * (no maintained plugin splits an object literal); it parses with Vite's own parser (oxc).
 *
 * Rules it enforces with a clear error at build time: a declaration is a plain object literal; a light key may
 * use imports and literals but no constant of the file (that would be cut off with the rest of the file).
 */
import { readFileSync } from 'node:fs';
import { parseSync, type Plugin } from 'vite';

/** The keys the shell reads; everything else loads with the resource's pages. */
export const LIGHT_KEYS = [
  'name',
  'access',
  'titleKey',
  'singularKey',
  'menu',
  'routes',
  'pages',
  'canCreate',
  'actions',
  'auditTargets',
] as const;

const QUERY = '?meta';

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const unwrap = (node: Node | null | undefined): Node | null | undefined => {
  let n = node;
  while (
    n &&
    (n.type === 'TSSatisfiesExpression' || n.type === 'TSAsExpression' || n.type === 'ParenthesizedExpression')
  )
    n = n.expression as Node;
  return n;
};

const isDefineCall = (node: Node | null | undefined): boolean =>
  !!node &&
  node.type === 'CallExpression' &&
  (node.callee as Node).type === 'Identifier' &&
  (node.callee as { name: string }).name === 'defineResource';

/** The light module's source for one declaration file. */
export function lightModule(code: string, file: string): string {
  const { program, errors } = parseSync(file, code, { lang: file.endsWith('x') ? 'tsx' : 'ts', sourceType: 'module' });
  if (errors.length) throw new Error(`${file}: ${errors[0].message}`);
  const imports: { names: string[]; text: string }[] = [];
  const locals = new Set<string>();
  const calls: Node[] = [];
  const collectCalls = (node: Node | null | undefined) => {
    const n = unwrap(node);
    if (n && isDefineCall(n)) calls.push(n);
    else if (n && n.type === 'ArrayExpression') for (const e of n.elements as Node[]) collectCalls(e);
  };
  for (const statement of program.body as unknown as Node[]) {
    if (statement.type === 'ImportDeclaration') {
      if (statement.importKind === 'type') continue;
      const specifiers = statement.specifiers as Node[];
      const names = specifiers.filter((s) => s.importKind !== 'type').map((s) => (s.local as { name: string }).name);
      if (names.length) imports.push({ names, text: code.slice(statement.start, statement.end) });
      continue;
    }
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement;
    if (statement.type === 'ExportDefaultDeclaration') {
      collectCalls(statement.declaration as Node);
      continue;
    }
    if (!declaration) continue;
    if (declaration.type === 'VariableDeclaration') {
      for (const d of declaration.declarations as Node[]) {
        const id = d.id as Node & { name?: string };
        const init = unwrap(d.init as Node);
        if (init && isDefineCall(init)) calls.push(init);
        else if (id.name) locals.add(id.name);
      }
    } else if ((declaration.id as { name?: string } | undefined)?.name) {
      locals.add((declaration.id as { name: string }).name);
    }
  }
  if (!calls.length)
    throw new Error(
      `${file}: no defineResource({...}) call; a resource.ts file declares its resources with defineResource.`,
    );

  const lights = calls.map((call) => {
    const object = unwrap((call.arguments as Node[])[0]);
    if (object?.type !== 'ObjectExpression') throw new Error(`${file}: defineResource takes a plain object literal.`);
    const kept: string[] = [];
    let generic = false;
    for (const property of object.properties as Node[]) {
      if (property.type !== 'Property' || (property.computed as boolean)) {
        throw new Error(
          `${file}: a resource declaration is a plain object literal (no spread or computed key): ${code.slice(property.start, property.end).slice(0, 60)}`,
        );
      }
      const key = property.key as Node & { name?: string; value?: unknown };
      const name = key.name ?? String(key.value);
      if (name === 'fields') generic = true;
      if ((LIGHT_KEYS as readonly string[]).includes(name)) kept.push(code.slice(property.start, property.end));
    }
    kept.push(`generic: ${generic}`);
    return `{ ${kept.join(', ')} }`;
  });
  const body = lights.join(',\n');
  // Identifiers the kept keys use (string contents left out, so a label key naming a constant is not one).
  const used = new Set(body.replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '""').match(/[A-Za-z_$][\w$]*/g) ?? []);
  const cut = [...locals].filter((name) => used.has(name));
  if (cut.length) {
    throw new Error(
      `${file}: the declaration's ${LIGHT_KEYS.join('/')} keys use ${cut.join(', ')}, a constant of the file; write the value there ` +
        `or import it (those keys are loaded without the rest of the file).`,
    );
  }
  const kept = imports.filter((i) => i.names.some((n) => used.has(n))).map((i) => i.text);
  return `${kept.join('\n')}\nexport default [\n${body}\n];\n`;
}

export function resourceMeta(): Plugin {
  return {
    name: 'isp-portal:resource-meta',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!source.endsWith(QUERY)) return null;
      const resolved = await this.resolve(source.slice(0, -QUERY.length), importer, { skipSelf: true });
      return resolved ? `${resolved.id}${QUERY}` : null;
    },
    load(id) {
      if (!id.endsWith(QUERY)) return null;
      const file = id.slice(0, -QUERY.length);
      this.addWatchFile(file);
      return { code: lightModule(readFileSync(file, 'utf8'), file), moduleType: file.endsWith('x') ? 'tsx' : 'ts' };
    },
  };
}
