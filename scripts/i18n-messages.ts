/**
 * The fixed English messages the API answers with and the contract's validation messages (issue 37), collected from
 * the source so they can be translated: `{ message: '…' }` in an object (zod's rules, the envelopes' messages),
 * a module's table of texts (PLAN_MESSAGES = { notFound: 'Plan not found' }, or [pattern, text] pairs), a const
 * named *_MESSAGE or *_ERROR, the error helpers' texts (badRequest('…'), notFound('…'), conflict('…'), unauthorized('…'), forbidden('…'),
 * tooManyRequests('…'), new AppError(status, '…')) and their defaults.
 *
 * A message built at run time (a template with ${…}: `${wanted} is reserved`) is collected as a pattern, its values
 * numbered left to right: `{0} is reserved`, from the same places and from a few more that only make messages: a
 * *_MESSAGES table's functions (cannotRevoke: (state) => a template), a *Message function (transitionMessage),
 * the table a *Messages function returns (defaultMessages), const message = a template, invalid(field, a template). A
 * value that is a message the collector knows (a *_MESSAGE const, a *_MESSAGES table's text, also through
 * `const M = IPAM_MESSAGES` or `import { X as M }`) is written into the pattern; any other value is a placeholder.
 * A template with no letter outside its placeholders is not a message and is left out. Logs, stored data (a
 * ledger's reasons) and the command line's texts are not in these places and stay English.
 *
 * The web app shows a message from the server or from a contract schema through translateMessage() (src/i18n),
 * which looks up `msg.<the English text>` in the reader's language, else the first `msgp.<pattern>` that matches
 * it, with the values put back into the translation; the API itself keeps answering in English, which is what
 * integrators code against.
 *
 * `npx tsx scripts/i18n-messages.ts` rewrites src/i18n/en/messages.ts; `--check` exits 1 when it is out of date
 * (tests/web/i18n-languages.test.ts runs the same comparison).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(root, 'src/i18n/en/messages.ts');
const HELPERS = new Set(['badRequest', 'notFound', 'conflict', 'unauthorized', 'forbidden', 'tooManyRequests']);
/** Code whose texts no customer or staff member reads in the portal: the demo and seed data, the simulator, the command line, start-up configuration (for the operator). */
const SKIP = /^server\/(db\/demo|simulator|cli)\/|(^|\/)(config|seed)\.ts$/;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (/\.ts$/.test(name) && !/\.d\.ts$/.test(name)) out.push(path);
  }
  return out;
}

const literal = (node: ts.Node | undefined): string | undefined =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;

/** The fixed messages (msg.<text>) and the patterns of the ones built at run time (msgp.<pattern>), each sorted. */
interface CollectedMessages {
  messages: string[];
  patterns: string[];
}

/** A placeholder in a pattern: {0}, {1}, … (a literal brace around digits is not expected in a message). */
const PLACEHOLDER = /\{\d+\}/g;

const unwrap = (node: ts.Expression): ts.Expression => {
  let init = node;
  while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init))
    init = init.expression;
  return init;
};

function sources(): Array<{ rel: string; source: ts.SourceFile }> {
  const out: Array<{ rel: string; source: ts.SourceFile }> = [];
  for (const file of [...files(join(root, 'contract')), ...files(join(root, 'server'))]) {
    const rel = relative(root, file);
    if (SKIP.test(rel)) continue;
    out.push({ rel, source: ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true) });
  }
  return out;
}

/**
 * The message constants of the whole source, by name: *_MESSAGE / *_ERROR texts and *_MESSAGES tables. A name
 * declared twice with different texts is dropped (it cannot be resolved without the type checker).
 */
function knownConstants(all: Array<{ source: ts.SourceFile }>) {
  const texts = new Map<string, string | null>();
  const tables = new Map<string, Map<string, string> | null>();
  for (const { source } of all) {
    const visit = (node: ts.Node) => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        const name = node.name.text;
        const init = unwrap(node.initializer);
        const text = literal(init);
        if (/(_MESSAGE|_ERROR)$/.test(name) && text !== undefined)
          texts.set(name, texts.has(name) && texts.get(name) !== text ? null : text);
        if (/MESSAGES$/.test(name) && ts.isObjectLiteralExpression(init)) {
          const table = new Map<string, string>();
          for (const property of init.properties) {
            if (!ts.isPropertyAssignment(property) || ts.isComputedPropertyName(property.name)) continue;
            const value = literal(property.initializer);
            if (value !== undefined) table.set(property.name.getText(source).replace(/^['"]|['"]$/g, ''), value);
          }
          tables.set(name, tables.has(name) ? null : table);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { texts, tables };
}

/**
 * `${wanted} is reserved` → `{0} is reserved`. A value that picks one of two fixed texts (`subscription${n === 1 ?
 * '' : 's'}`) gives a pattern for each, so a language words both forms its own way. A template whose every value is
 * a known message is a fixed text after all: returned without a placeholder. A pattern with no letter outside its
 * placeholders is not a message and is left out.
 */
function patternsOf(
  template: ts.TemplateExpression,
  resolve: (expression: ts.Expression) => string | undefined,
): string[] {
  let patterns = [template.head.text];
  let n = 0;
  for (const span of template.templateSpans) {
    const e = unwrap(span.expression);
    const known = resolve(e);
    const either = ts.isConditionalExpression(e) ? [literal(e.whenTrue), literal(e.whenFalse)] : [];
    const choices =
      known !== undefined
        ? [known]
        : either.length === 2 && either.every((c) => c !== undefined)
          ? (either as string[])
          : [`{${n++}}`];
    patterns = patterns.flatMap((p) => choices.map((c) => p + c + span.literal.text));
  }
  // A sentence: a letter and a space outside the values, starting like one.
  return patterns.filter(
    (p) => /[A-Za-z]/.test(p.replace(PLACEHOLDER, '')) && /\s/.test(p.trim()) && /^[A-Za-z0-9"'{]/.test(p),
  );
}

export function collectMessages(): CollectedMessages {
  const found = new Set<string>();
  const patterns = new Set<string>();
  // In a *_MESSAGES table every text counts, a one-word one too ('Connect'); elsewhere only sentences.
  const addWord = (text: string | undefined) => {
    if (text && /[A-Za-z]/.test(text)) found.add(text);
  };
  const add = (text: string | undefined) => {
    // A sentence (it has a space and a lower-case letter), not an identifier or a path.
    if (text && /^[A-Za-z0-9"']/.test(text) && /[a-z]/.test(text) && /\s/.test(text.trim())) found.add(text);
  };
  const all = sources();
  const { texts, tables } = knownConstants(all);
  for (const { rel, source } of all) {
    // Local names of the message constants: import { BACKUP_MESSAGES as M }, const M = IPAM_MESSAGES.
    const aliases = new Map<string, string>();
    const aliasVisit = (node: ts.Node) => {
      if (ts.isImportSpecifier(node) && node.propertyName)
        aliases.set(node.name.text, node.propertyName.getText(source));
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        const init = unwrap(node.initializer);
        if (ts.isIdentifier(init)) aliases.set(node.name.text, init.text);
      }
      ts.forEachChild(node, aliasVisit);
    };
    aliasVisit(source);
    const real = (name: string) => aliases.get(name) ?? name;
    const resolve = (expression: ts.Expression): string | undefined => {
      const e = unwrap(expression);
      if (ts.isIdentifier(e)) return texts.get(real(e.text)) ?? undefined;
      if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression))
        return tables.get(real(e.expression.text))?.get(e.name.text);
      return undefined;
    };
    // The templates an expression may give: itself, either branch of a condition, an arrow function's result.
    const templatesIn = (node: ts.Node | undefined): ts.TemplateExpression[] => {
      if (!node || !ts.isExpression(node)) return [];
      const e = unwrap(node);
      if (ts.isTemplateExpression(e)) return [e];
      if (ts.isConditionalExpression(e)) return [...templatesIn(e.whenTrue), ...templatesIn(e.whenFalse)];
      if (ts.isArrowFunction(e) && ts.isExpression(e.body)) return templatesIn(e.body);
      return [];
    };
    const addPattern = (node: ts.Node | undefined) => {
      for (const template of templatesIn(node))
        for (const pattern of patternsOf(template, resolve))
          if (/\{\d+\}/.test(pattern)) patterns.add(pattern);
          else add(pattern);
    };
    // A function that makes messages: defaultMessages(label) returns a table, transitionMessage(from, to) a text.
    const functionName = (node: ts.Node): string | undefined => {
      if (ts.isFunctionDeclaration(node)) return node.name?.text;
      if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isVariableDeclaration(node.parent))
        return node.parent.name.getText(source);
      return undefined;
    };
    const makerOf = (node: ts.Node): string | undefined => {
      for (let up = node.parent; up; up = up.parent) if (ts.isFunctionLike(up)) return functionName(up);
      return undefined;
    };
    const visit = (node: ts.Node) => {
      if (ts.isReturnStatement(node) && node.expression) {
        const maker = makerOf(node) ?? '';
        const init = unwrap(node.expression);
        if (/Message$/.test(maker)) addPattern(init);
        if (/Messages$/.test(maker) && ts.isObjectLiteralExpression(init))
          for (const property of init.properties)
            if (ts.isPropertyAssignment(property)) addPattern(property.initializer);
      }
      if (ts.isArrowFunction(node) && /Message$/.test(functionName(node) ?? '')) addPattern(node.body);
      if (ts.isVariableDeclaration(node) && /^message$|_MESSAGE$/.test(node.name.getText(source)))
        addPattern(node.initializer);
      // A field error: invalid('address', `${wanted} is not inside ${network.cidr}`).
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'invalid')
        addPattern(node.arguments[1]);
      if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'message') {
        add(literal(node.initializer));
        addPattern(node.initializer);
      }
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && HELPERS.has(node.expression.text)) {
        add(literal(node.arguments[0]));
        addPattern(node.arguments[0]);
      }
      if (ts.isNewExpression(node) && node.expression.getText(source) === 'AppError') {
        add(literal(node.arguments?.[1]));
        addPattern(node.arguments?.[1]);
      }
      // A module's table of texts: export const PLAN_MESSAGES = { notFound: 'Plan not found', … }.
      if (
        ts.isVariableDeclaration(node) &&
        /MESSAGES$/.test(node.name.getText(source)) &&
        node.initializer !== undefined
      ) {
        const init = unwrap(node.initializer);
        if (ts.isObjectLiteralExpression(init))
          for (const property of init.properties)
            if (ts.isPropertyAssignment(property)) {
              addWord(literal(property.initializer));
              addPattern(property.initializer);
            }
        // A table of [pattern, text] pairs: const ROUTER_ERROR_MESSAGES = [[/^Login incorrect$/, 'That code…'], …].
        if (ts.isArrayLiteralExpression(init))
          for (const pair of init.elements)
            if (ts.isArrayLiteralExpression(pair)) for (const item of pair.elements) addWord(literal(item));
      }
      // A single text: export const UNKNOWN_ROUTER_ERROR = 'The login did not succeed. Please try again.'.
      if (ts.isVariableDeclaration(node) && /(_MESSAGE|_ERROR)$/.test(node.name.getText(source)))
        add(literal(node.initializer));
      if (rel === 'server/lib/errors.ts' && ts.isParameter(node)) add(literal(node.initializer));
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { messages: [...found].sort(), patterns: [...patterns].sort() };
}

export function messagesModule({ messages, patterns }: CollectedMessages): string {
  const lines = [
    ...messages.map((m) => `  ${JSON.stringify(`msg.${m}`)}: ${JSON.stringify(m)},`),
    ...patterns.map((p) => `  ${JSON.stringify(`msgp.${p}`)}: ${JSON.stringify(p)},`),
  ];
  return `/**
 * GENERATED by scripts/i18n-messages.ts (do not edit): the API's fixed messages and the contract's validation
 * messages, each under msg.<its English text>, and the patterns of the messages built at run time under
 * msgp.<the pattern>, their values numbered {0}, {1}, … The web app shows them translated (translateMessage in
 * src/i18n); the translations are in src/i18n/locales/<code>.json like every other text.
 */
export const messages: Record<string, string> = {
${lines.join('\n')}
};
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = messagesModule(collectMessages());
  if (process.argv.includes('--check')) {
    const current = readFileSync(OUT, 'utf8');
    if (current !== text) {
      console.log('src/i18n/en/messages.ts is out of date: run npx tsx scripts/i18n-messages.ts');
      process.exit(1);
    }
    console.log('src/i18n/en/messages.ts is up to date');
  } else {
    writeFileSync(OUT, text);
    const { messages, patterns } = collectMessages();
    console.log(`${relative(root, OUT)}: ${messages.length} messages, ${patterns.length} patterns`);
  }
}
