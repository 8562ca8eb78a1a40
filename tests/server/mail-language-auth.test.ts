/**
 * Issue 37: the auth and ticket e-mails are written in the recipient's language: the one stored on their account
 * (users.language; a visitor's registration stores the site's language), else the ISP's default. The texts are the
 * translations' own (src/i18n/locales/<code>.json); English readers keep the English texts.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../contract/product';
import { bearer, createTestApp, linkIn, type TestApp } from '../helpers/server';

const texts = (code: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../src/i18n/locales/${code}.json`, import.meta.url), 'utf8'));
const es = texts('es');
const ar = texts('ar');
const fr = texts('fr');
/** A translation with its {arguments} filled in (no plural/select in the texts used here). */
const fill = (template: string, params: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const registration = (email: string, extra: object = {}) => ({
  name: 'Sofía Registro',
  email,
  password: 'long-enough-1',
  phone: '+34 600 000 000',
  address: 'Calle Mayor 5',
  ...extra,
});
const register = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/register', payload });

/** Signs in and sets the account's language through the profile. */
async function withLanguage(email: string, language: string): Promise<string> {
  const { token } = await t.login(email);
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/auth/profile',
    headers: bearer(token),
    payload: { language },
  });
  expect(res.statusCode, res.body).toBe(200);
  return token;
}

describe('auth e-mails in the recipient’s language', () => {
  it('a visitor registering in Spanish gets a Spanish account and a Spanish verification e-mail', async () => {
    const res = await register(registration('sofia@example.com', { language: 'es' }));
    expect(res.statusCode, res.body).toBe(201);

    const mail = await t.lastMailTo('sofia@example.com');
    expect(mail.subject).toBe(fill(es['mail.auth.verify.subject'], { product: PRODUCT_NAME }));
    expect(mail.subject).toBe(`Verifique su dirección de correo electrónico para ${PRODUCT_NAME}`);
    expect(mail.text).toContain('Hola, Sofía Registro:');
    expect(mail.text).toContain(fill(es['mail.auth.verify.intro'], { email: 'sofia@example.com' }));
    expect(mail.text).toContain(`${es['mail.auth.verify.action']}: `);
    expect(mail.text).toContain(es['mail.auth.verify.outro']);
    expect(mail.text).not.toContain('Hello');
    expect(mail.html).toContain(es['mail.auth.verify.action']);
    expect(linkIn(mail).url.pathname).toBe('/verify-email');

    // The language is the account's.
    const signedIn = await t.login('sofia@example.com', 'long-enough-1');
    expect(signedIn.user.language).toBe('es');
  });

  it('a registration without a language keeps the English e-mail (the ISP default) and no stored language', async () => {
    expect((await register(registration('plain@example.com'))).statusCode).toBe(201);
    const mail = await t.lastMailTo('plain@example.com');
    expect(mail.subject).toBe(`Verify your e-mail address for ${PRODUCT_NAME}`);
    expect(mail.text).toContain('Hello Sofía Registro,');
    expect(mail.text).toContain('Please confirm that plain@example.com is your e-mail address.');
    expect((await t.login('plain@example.com', 'long-enough-1')).user.language).toBeNull();
  });

  it('refuses a language the portal does not speak (400, naming the field) and creates no account', async () => {
    const before = (await t.sentMail()).length;
    const res = await register(registration('deutsch@example.com', { language: 'de' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      errors: [expect.objectContaining({ field: 'language', message: 'Choose one of en, es, fr, id, ar' })],
    });
    expect((await t.sentMail()).length).toBe(before);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'deutsch@example.com', password: 'long-enough-1', rememberMe: false },
    });
    expect(login.statusCode).toBe(401);
  });

  it('a password reset for an Arabic-speaking user comes in Arabic', async () => {
    await t.createUser({ email: 'layla@example.com', name: 'Layla' });
    await withLanguage('layla@example.com', 'ar');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: 'layla@example.com' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await t.lastMailTo('layla@example.com');
    expect(mail.subject).toBe(fill(ar['mail.auth.reset.subject'], { product: PRODUCT_NAME }));
    expect(mail.subject).toBe(`إعادة تعيين كلمة مرور ${PRODUCT_NAME}`);
    expect(mail.text).toContain('مرحبًا Layla،');
    expect(mail.text).toContain(ar['mail.auth.reset.intro']);
    expect(mail.text).toContain(ar['mail.auth.reset.outro']);
    expect(linkIn(mail).url.pathname).toBe('/password-reset/confirm');
  });
});

describe('ticket e-mails in the recipient’s language', () => {
  let support: string;
  beforeAll(async () => {
    await t.createUser({ email: 'support@example.com', name: 'Sam Support', role: 'support' });
    support = (await t.login('support@example.com')).token;
    await t.createUser({ email: 'claire@example.com', name: 'Claire', role: 'user' });
    await t.createUser({ email: 'ed@example.com', name: 'Ed', role: 'user' });
  });

  const openTicket = async (token: string, subject: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: bearer(token),
      payload: { subject, description: 'No light on the router.' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; number: string };
  };
  const staffReply = async (ticketId: string, message: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/tickets/${ticketId}/replies`,
      headers: bearer(support),
      payload: { message },
    });
    expect(res.statusCode, res.body).toBe(201);
  };

  it('a staff reply reaches a French customer in French, and an English customer in English', async () => {
    const claire = await withLanguage('claire@example.com', 'fr');
    const ticket = await openTicket(claire, 'Plus de connexion');
    await staffReply(ticket.id, 'Veuillez redémarrer le routeur.');
    const mail = await t.lastMailTo('claire@example.com');
    expect(mail.subject).toBe(
      fill(fr['mail.tickets.staffReply.subject'], { number: ticket.number, subject: 'Plus de connexion' }),
    );
    expect(mail.subject).toBe(`[${ticket.number}] Nouvelle réponse : Plus de connexion`);
    expect(mail.text).toContain('Bonjour Claire,');
    expect(mail.text).toContain(`Sam Support a répondu à votre ticket ${ticket.number} « Plus de connexion » :`);
    expect(mail.text).toContain('> Veuillez redémarrer le routeur.');
    expect(mail.text).toContain(`Ouvrir le ticket : http://portal.test/dashboard/tickets/${ticket.id}`);

    const ed = (await t.login('ed@example.com')).token;
    const english = await openTicket(ed, 'Internet is down');
    await staffReply(english.id, 'Please restart the router.');
    const edMail = await t.lastMailTo('ed@example.com');
    expect(edMail.subject).toBe(`[${english.number}] New reply: Internet is down`);
    expect(edMail.text).toContain('Hello Ed,');
    expect(edMail.text).toContain(`Sam Support replied to your ticket ${english.number} "Internet is down":`);
    expect(edMail.text).toContain(`Open the ticket: http://portal.test/dashboard/tickets/${english.id}`);
  });

  it('a status change names the statuses in the customer’s language', async () => {
    const claire = (await t.login('claire@example.com')).token;
    const ticket = await openTicket(claire, 'Lenteur');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/tickets/${ticket.id}/status`,
      headers: bearer(support),
      payload: { status: 'resolved' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await t.lastMailTo('claire@example.com');
    expect(mail.subject).toBe(`[${ticket.number}] Statut : Résolu`);
    expect(mail.text).toContain(`Le statut de votre ticket ${ticket.number} « Lenteur » est passé de Ouvert à Résolu.`);
  });
});
