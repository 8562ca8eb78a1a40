/**
 * Local HTTP fakes of the SMS / WhatsApp providers (issue 38), speaking their real wire formats: Twilio's Messages
 * API (form body, HTTP Basic, JSON answer with `sid`, errors `{code, message, status}`), WhatsApp Cloud's messages
 * endpoint (JSON template body, Bearer token, `{messages:[{id}]}`, errors `{error:{message, code}}`), and a generic
 * gateway. Each records what it received and answers from a queue of scripted failures, else success.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface ProviderFake {
  url: string;
  received: ReceivedRequest[];
  /** The next answers (status and JSON body), before the default success. */
  failNext(...answers: Array<{ status: number; body: unknown }>): void;
  close(): Promise<void>;
}

type Kind = 'twilio' | 'whatsapp' | 'webhook';

const success = (kind: Kind, request: ReceivedRequest): { status: number; body: unknown } => {
  if (kind === 'twilio') {
    const form = new URLSearchParams(request.body);
    return {
      status: 201,
      body: {
        sid: `SM${randomBytes(16).toString('hex')}`,
        status: 'queued',
        to: form.get('To'),
        from: form.get('From'),
        body: form.get('Body'),
        num_segments: '1',
      },
    };
  }
  if (kind === 'whatsapp') {
    const body = JSON.parse(request.body) as { to: string };
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id: `wamid.${randomBytes(12).toString('base64url')}` }],
      },
    };
  }
  return { status: 200, body: { id: `gw-${randomBytes(6).toString('hex')}`, status: 'accepted' } };
};

export async function startProviderFake(kind: Kind): Promise<ProviderFake> {
  const received: ReceivedRequest[] = [];
  const queue: Array<{ status: number; body: unknown }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      const answer = queue.shift() ?? success(kind, request);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failNext: (...answers) => queue.push(...answers),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Twilio's error answer, as its API sends it. */
export const twilioError = (status: number, code: number, message: string) => ({
  status,
  body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});

/** Waits until `check` returns a truthy value (polling), or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
