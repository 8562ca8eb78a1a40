/**
 * Checks answers against the API's own OpenAPI document (GET /api/openapi.json), as a validating proxy in front of
 * the server would: for a request to an operation of the document, the status must be one the operation declares,
 * the media type one that status declares, and a JSON body must match that status's schema (Ajv, JSON Schema 2020-12
 * as OpenAPI 3.1 uses). So the document cannot drift from what the server answers.
 *
 * Used by createTestApp (tests/helpers/server.ts) for every test app (unless `checkResponses: false`, or
 * OPENAPI_CHECK_RESPONSES=0 for a run): every t.app.inject is checked, and a mismatch fails the request's test.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

type Schema = Record<string, unknown>;
type Response = { $ref?: string; description?: string; content?: Record<string, { schema?: Schema }> };
type Operation = { responses?: Record<string, Response> };
export type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  components?: { responses?: Record<string, Response> };
};

/** The answer as the check sees it (a light-my-request response has these). */
export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/** A JSON pointer segment inside a URI fragment ("/api/plans/{id}" → "~1api~1plans~1%7Bid%7D"). */
const escapePointer = (s: string) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));

export function createResponseChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // The whole document as one schema resource, so each operation's schema is compiled by reference, with its $refs.
  ajv.addSchema({ $id: 'openapi.json', ...(document as object) });
  const compiled = new Map<string, ValidateFunction>();

  // Templates in the order a router tries them: more literal segments first ("/payments/gateways/{id}" before
  // "/payments/{id}/refund").
  const templates = Object.keys(document.paths)
    .map((template) => {
      const segments = template.split('/');
      const pattern = new RegExp(
        `^${segments.map((s) => (/^\{\w+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`,
      );
      return {
        template,
        pattern,
        literals: segments.filter((s) => !s.startsWith('{')).length,
        segments: segments.length,
      };
    })
    .sort((a, b) => b.segments - a.segments || b.literals - a.literals);
  const templateOf = (path: string) => {
    const candidates = templates.filter((t) => t.pattern.test(path));
    // Segment by segment, a literal beats a parameter (as find-my-way does).
    candidates.sort((a, b) => {
      const sa = a.template.split('/');
      const sb = b.template.split('/');
      for (let i = 0; i < sa.length; i++) {
        const la = !sa[i].startsWith('{');
        const lb = !sb[i].startsWith('{');
        if (la !== lb) return la ? -1 : 1;
      }
      return 0;
    });
    return candidates[0]?.template;
  };

  /** What does not match in one answer ([] when all does); an answer to a path the document has not is not checked. */
  return function check(method: string, url: string, answer: Answer): string[] {
    const path = url.split('?')[0];
    const template = templateOf(path);
    const m = method.toLowerCase();
    const operation = template ? document.paths[template][m] : undefined;
    if (!template || !operation) return [];
    const name = `${method.toUpperCase()} ${template}`;
    const status = String(answer.statusCode);
    let response =
      operation.responses?.[status] ?? operation.responses?.[`${status[0]}XX`] ?? operation.responses?.default;
    if (!response) return [`${name} answered ${status}, which it does not declare (${answer.body.slice(0, 200)})`];
    let pointer = `openapi.json#/paths/${escapePointer(template)}/${m}/responses/${status}`;
    if (response.$ref) {
      const ref = response.$ref.replace(/^#\/components\/responses\//, '');
      pointer = `openapi.json#/components/responses/${escapePointer(ref)}`;
      response = document.components?.responses?.[ref] ?? {};
    }
    const declared = Object.keys(response.content ?? {});
    const type = String(answer.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    if (!declared.length) {
      return answer.body.length && status !== '204'
        ? [`${name} ${status}: a ${type || 'untyped'} body where the document declares none`]
        : [];
    }
    const media = declared.find(
      (d) => d === type || (d.endsWith('/*') && type.startsWith(d.slice(0, -1))) || d === '*/*',
    );
    if (!media)
      return [`${name} ${status}: answered ${type || 'no media type'}, the document declares ${declared.join(', ')}`];
    if (media !== 'application/json' || !response.content?.[media]?.schema) return [];
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [`${name} ${status}: the body is not JSON`];
    }
    const key = `${pointer}/content/application~1json/schema`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile({ $ref: key });
      compiled.set(key, validate);
    }
    if (validate(body)) return [];
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) =>
          `${e.instancePath || '/'} ${e.message}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`,
      );
    return [
      `${name} ${status}: the body does not match the document: ${errors.join('; ')} (${answer.body.slice(0, 200)})`,
    ];
  };
}
