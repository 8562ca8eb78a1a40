/**
 * Twilio's Messages API: POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded To, From (or
 * MessagingServiceSid), Body and StatusCallback, HTTP Basic AccountSid:AuthToken. The answer is JSON with `sid`
 * and `status`; an error answer is `{code, message, status}`. WhatsApp through Twilio: both numbers prefixed
 * "whatsapp:".
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

export const TWILIO_BASE_URL = 'https://api.twilio.com';

export function twilioSender(p: ProviderSettings, fetchFn: FetchLike): MessageSender {
  const accountSid = setting(p.config, 'account_sid');
  const base = setting(p.config, 'base_url', TWILIO_BASE_URL).replace(/\/+$/, '');
  return {
    async send(m: OutgoingMessage) {
      const prefix = m.channel === 'whatsapp' ? 'whatsapp:' : '';
      const form = new URLSearchParams({ To: `${prefix}${m.to}`, Body: m.text, StatusCallback: m.statusCallbackUrl });
      const service = setting(p.config, 'messaging_service_sid');
      if (service) form.set('MessagingServiceSid', service);
      else form.set('From', `${prefix}${setting(p.config, 'from')}`);
      const auth = Buffer.from(`${accountSid}:${p.secrets.auth_token ?? ''}`).toString('base64');
      const response = await request(
        fetchFn,
        `${base}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`,
        {
          method: 'POST',
          headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
        },
      );
      const body = await readJson(response);
      if (!response.ok) throw httpError(response, `${body.code ?? ''} ${body.message ?? body.raw ?? ''}`.trim());
      if (typeof body.sid !== 'string') throw new ProviderError('Twilio answered without a message SID', false);
      return { providerMessageId: body.sid };
    },
  };
}

/**
 * X-Twilio-Signature: base64 HMAC-SHA1, keyed with the auth token, of the full URL Twilio requested followed by
 * each POST parameter's name and value, sorted by name.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export function validTwilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string>,
  signature: string | undefined,
): boolean {
  if (!signature || !authToken) return false;
  return sameSecret(twilioSignature(authToken, url, params), signature);
}
