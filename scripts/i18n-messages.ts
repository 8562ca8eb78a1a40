/**
 * The fixed English messages the API answers with and the contract's validation messages (issue 37), collected from
 * the source so they can be translated: `{ message: '…' }` in an object (zod's rules, the envelopes' messages),
 * a module's table of texts (PLAN_MESSAGES = { notFound: 'Plan not found' }, or [pattern, text] pairs), a const
 * named *_MESSAGE or *_ERROR, the error helpers' texts (badRequest('…'), notFound('…'), conflict('…'), unauthorized('…'), forbidden('…'),
 * tooManyRequests('…'), new AppError(status, '…')) and their defaults. A message built at run time (a template
 * with ${…}) is not collected: it stays English.
 *
 * The web app shows a message from the server or from a contract schema through translateMessage() (src/i18n),
 * which looks up `msg.<the English text>` in the reader's language; the API itself keeps answering in English,
 * which is what integrators code against.
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

export function collectMessages(): string[] {
  const found = new Set<string>();
  // In a *_MESSAGES table every text counts, a one-word one too ('Connect'); elsewhere only sentences.
  const addWord = (text: string | undefined) => {
    if (text && /[A-Za-z]/.test(text)) found.add(text);
  };
  const add = (text: string | undefined) => {
    // A sentence (it has a space and a lower-case letter), not an identifier or a path.
    if (text && /^[A-Za-z0-9"']/.test(text) && /[a-z]/.test(text) && /\s/.test(text.trim())) found.add(text);
  };
  for (const file of [...files(join(root, 'contract')), ...files(join(root, 'server'))]) {
    const rel = relative(root, file);
    if (SKIP.test(rel)) continue;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'message') add(literal(node.initializer));
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && HELPERS.has(node.expression.text))
        add(literal(node.arguments[0]));
      if (ts.isNewExpression(node) && node.expression.getText(source) === 'AppError') add(literal(node.arguments?.[1]));
      // A module's table of texts: export const PLAN_MESSAGES = { notFound: 'Plan not found', … }.
      if (
        ts.isVariableDeclaration(node) &&
        /MESSAGES$/.test(node.name.getText(source)) &&
        node.initializer !== undefined
      ) {
        let init: ts.Expression = node.initializer;
        while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init))
          init = init.expression;
        if (ts.isObjectLiteralExpression(init))
          for (const property of init.properties)
            if (ts.isPropertyAssignment(property)) addWord(literal(property.initializer));
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
  return [...found].sort();
}

export function messagesModule(messages: string[]): string {
  const lines = messages.map((m) => `  ${JSON.stringify(`msg.${m}`)}: ${JSON.stringify(m)},`);
  return `/**
 * GENERATED by scripts/i18n-messages.ts (do not edit): the API's fixed messages and the contract's validation
 * messages, each under msg.<its English text>. The web app shows them translated (translateMessage in src/i18n);
 * the translations are in src/i18n/locales/<code>.json like every other text.
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
    console.log(`${relative(root, OUT)}: ${collectMessages().length} messages`);
  }
}
