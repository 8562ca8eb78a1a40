/**
 * Meta's WhatsApp Cloud API: POST {base}/v21.0/{phone_number_id}/messages with a Bearer token and an approved
 * template, `{messaging_product:'whatsapp', to, type:'template', template:{name, language:{code}, components}}`;
 * the answer is `{messages:[{id:'wamid…'}]}`, an error `{error:{message, code, …}}`. The webhook signs its POSTs
 * with X-Hub-Signature-256: "sha256=" + hex HMAC-SHA256 of the raw body under the app secret.
 */
import { createHmac } from 'node:crypto';
import {
  type FetchLike,
  httpError,
  type MessageSender,
  type OutgoingMessage,
  type ProviderSettings,
  ProviderError,
  readJson,
  request,
  sameSecret,
  setting,
} from './types';

export const WHATSAPP_BASE_URL = 'https://graph.facebook.com';
export const WHATSAPP_API_VERSION = 'v21.0';
/** The generic template (one body parameter: the whole text) used when a message names none. */
export const WHATSAPP_DEFAULT_TEMPLATE = 'account_notification';

export function whatsappCloudSender(p: ProviderSettings, fetchFn: FetchLike): MessageSender {
  const base = setting(p.config, 'base_url', WHATSAPP_BASE_URL).replace(/\/+$/, '');
  const phoneNumberId = setting(p.config, 'phone_number_id');
  return {
    async send(m: OutgoingMessage) {
      const template = m.whatsappTemplate ?? {
        name: setting(p.config, 'template_name', WHATSAPP_DEFAULT_TEMPLATE),
        params: [m.text],
      };
      const response = await request(
        fetchFn,
        `${base}/${WHATSAPP_API_VERSION}/${encodeURIComponent(phoneNumberId)}/messages`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${p.secrets.access_token ?? ''}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            messaging_product: 'whatsapp',
            to: m.to.replace(/^\+/, ''),
            type: 'template',
            template: {
              name: template.name,
              language: { code: m.language },
              components: [{ type: 'body', parameters: template.params.map((text) => ({ type: 'text', text })) }],
            },
          }),
        },
      );
      const body = await readJson(response);
      if (!response.ok) {
        const error = (body.error ?? {}) as { message?: string; code?: number };
        throw httpError(response, `${error.code ?? ''} ${error.message ?? body.raw ?? ''}`.trim());
      }
      const id = (body.messages as Array<{ id?: unknown }> | undefined)?.[0]?.id;
      if (typeof id !== 'string') throw new ProviderError('WhatsApp answered without a message id', false);
      return { providerMessageId: id };
    },
  };
}

export function validHubSignature(appSecret: string, rawBody: string, header: string | undefined): boolean {
  if (!header || !appSecret) return false;
  return sameSecret(`sha256=${createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex')}`, header);
}
