/**
 * A generic HTTP webhook (a local SMS gateway): the configured URL and method, a body template whose {to} and
 * {text} placeholders are filled in (escaped for JSON, or URL-encoded for a form), and an optional auth header
 * whose value is sealed. The answer's `id` / `message_id` / `sid`, when JSON, is kept as the provider's id.
 */
import {
  type FetchLike,
  httpError,
  type MessageSender,
  type OutgoingMessage,
  type ProviderSettings,
  readJson,
  request,
  setting,
} from './types';

const DEFAULT_JSON_TEMPLATE = '{"to":"{to}","text":"{text}"}';
const DEFAULT_FORM_TEMPLATE = 'to={to}&text={text}';

export function fillTemplate(template: string, values: Record<string, string>, format: 'json' | 'form'): string {
  const encode = (v: string) => (format === 'json' ? JSON.stringify(v).slice(1, -1) : encodeURIComponent(v));
  return template.replace(/\{(to|text|channel)\}/g, (_, key: string) => encode(values[key] ?? ''));
}

export function webhookSender(p: ProviderSettings, fetchFn: FetchLike): MessageSender {
  const format = setting(p.config, 'format', 'json') === 'form' ? 'form' : 'json';
  const method = setting(p.config, 'method', 'POST').toUpperCase() === 'PUT' ? 'PUT' : 'POST';
  const template = setting(
    p.config,
    'body_template',
    format === 'json' ? DEFAULT_JSON_TEMPLATE : DEFAULT_FORM_TEMPLATE,
  );
  return {
    async send(m: OutgoingMessage) {
      const headers: Record<string, string> = {
        'content-type': format === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
      };
      const headerName = setting(p.config, 'auth_header_name');
      if (headerName && p.secrets.auth_header_value) headers[headerName.toLowerCase()] = p.secrets.auth_header_value;
      const response = await request(fetchFn, setting(p.config, 'url'), {
        method,
        headers,
        body: fillTemplate(template, { to: m.to, text: m.text, channel: m.channel }, format),
      });
      const body = await readJson(response);
      if (!response.ok) throw httpError(response, String(body.message ?? body.error ?? body.raw ?? ''));
      const id = body.id ?? body.message_id ?? body.sid;
      return { providerMessageId: typeof id === 'string' || typeof id === 'number' ? String(id) : null };
    },
  };
}
