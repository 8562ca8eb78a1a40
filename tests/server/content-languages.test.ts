/**
 * The ISP's own content per language (issue 37): FAQ, achievements, about, policies and plan descriptions given in
 * other offered languages, read with ?lang= (and in the public settings' content_translations), falling back field
 * by field to the default language's.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const es = {
  faq: [{ question: '¿Cuánto tarda la instalación?', answer: 'Tres días hábiles.' }],
  about: 'Somos un proveedor local.',
  policies: { 'privacy-policy': '# Política de privacidad\n\nNo vendemos sus datos.' },
};
const ar = {
  achievements: [{ label: 'عملاء سعداء', value: '12,000+' }],
  policies: { 'refund-policy': '# سياسة الاسترداد' },
};

describe('the ISP content in several languages', () => {
  let t: TestApp;
  let call: CallAs;
  beforeAll(async () => {
    const distDir = mkdtempSync(join(tmpdir(), 'isp-dist-'));
    mkdirSync(join(distDir, 'assets'));
    writeFileSync(
      join(distDir, 'index.html'),
      '<!doctype html><html><head><title>Portal</title></head><body></body></html>',
    );
    t = await createTestApp({ config: { serveSpa: true, distDir } });
    call = await signInEveryRole(t, ['admin', 'billing', 'support']);
  });
  afterAll(() => t.close());

  const pub = async (query = '') => (await call('GET', `/settings/public${query}`)).json().data;
  const policy = async (type: string, query = '') =>
    (await call('GET', `/settings/policies/${type}${query}`)).json().data;

  it('stores Spanish and Arabic versions and reads each language back, field by field over the default', async () => {
    const before = await pub();
    expect(before.content_translations).toEqual({});
    const res = await call('PUT', '/settings', 'admin', {
      about: 'We are a local provider.',
      content_translations: { es, ar },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.content_translations).toEqual({ es, ar });

    // Spanish: its own FAQ and about, the default's achievements (it has none of its own).
    const inEs = await pub('?lang=es');
    expect(inEs).toMatchObject({ content_language: 'es', faq: es.faq, about: es.about });
    expect(inEs.achievements).toEqual(before.achievements);
    // es-MX is Spanish; Arabic: its achievements, the default's FAQ and about.
    expect((await pub('?lang=es-MX')).faq).toEqual(es.faq);
    const inAr = await pub('?lang=ar');
    expect(inAr).toMatchObject({
      content_language: 'ar',
      achievements: ar.achievements,
      about: 'We are a local provider.',
    });
    expect(inAr.faq).toEqual(before.faq);
    // No language, the default or one the portal does not speak: the default's, with the others' versions beside it
    // (the web app picks its reader's), policies left out of the public settings.
    for (const query of ['', '?lang=en', '?lang=de']) {
      const data = await pub(query);
      expect(data).toMatchObject({ content_language: 'en', faq: before.faq, about: 'We are a local provider.' });
      expect(data.content_translations).toEqual({
        es: { faq: es.faq, about: es.about },
        ar: { achievements: ar.achievements },
      });
    }

    // Policies: their own language's when there is one, else the default's.
    expect(await policy('privacy-policy', '?lang=es')).toMatchObject({
      markdown: es.policies['privacy-policy'],
      language: 'es',
    });
    expect(await policy('privacy-policy', '?lang=ar')).toMatchObject({ language: 'en' });
    expect((await policy('privacy-policy', '?lang=ar')).markdown).toMatch(/^# Privacy Policy/);
    expect((await policy('refund-policy', '?lang=ar')).markdown).toBe('# سياسة الاسترداد');
    expect((await policy('refund-policy')).markdown).toMatch(/^# Refund Policy/);

    // The page's injected copy carries the translations too.
    const html = (await t.app.inject({ method: 'GET', url: '/' })).body;
    const json = /<script id="portal-settings" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(json!).content_translations.es.faq).toEqual(es.faq);
  });

  it('a language sent replaces its version, null or blank texts remove it, languages not sent are kept', async () => {
    const res = await call('PUT', '/settings', 'admin', {
      content_translations: {
        es: { faq: [], about: '  ', policies: { 'privacy-policy': 'Solo en español' } },
        ar: null,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.content_translations).toEqual({ es: { policies: { 'privacy-policy': 'Solo en español' } } });
    expect((await pub('?lang=es')).faq).toEqual((await pub()).faq);
    expect((await pub('?lang=ar')).achievements).toEqual((await pub()).achievements);
    await call('PUT', '/settings', 'admin', { content_translations: { es } });
  });

  it('refuses a language the portal does not speak, one not offered or the default, changing nothing', async () => {
    const stored = (await call('GET', '/settings', 'admin')).json().data;
    const refuse = async (payload: object, field: string) => {
      const res = await call('PUT', '/settings', 'admin', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: expect.any(String) });
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    };
    await refuse({ about: 'Changed', content_translations: { de: { about: 'Hallo' } } }, 'content_translations.de');
    await refuse({ about: 'Changed', content_translations: { en: { about: 'Hello' } } }, 'content_translations.en');
    // Too long, like the default's fields.
    await refuse(
      { about: 'Changed', content_translations: { es: { faq: [{ question: '¿?', answer: 'x' }] } } },
      'content_translations.es.faq.0.question',
    );
    // French is no longer offered after this same request.
    await refuse(
      {
        about: 'Changed',
        languages: { default: 'en', offered: ['en', 'es'] },
        content_translations: { fr: { about: 'Bonjour' } },
      },
      'content_translations.fr',
    );
    const after = (await call('GET', '/settings', 'admin')).json().data;
    expect(after).toEqual(stored);
    expect(after.about).toBe('We are a local provider.');
  });

  it('gives a plan its description per language: ?lang= answers it, else the default description', async () => {
    const created = await call('POST', '/plans', 'billing', {
      name: 'Fibra 300',
      download_mbps: 300,
      upload_mbps: 50,
      price: 4999,
      billing_cycle: 'monthly',
      description: 'Fast fiber for the family.',
      description_translations: { es: 'Fibra rápida para la familia.', ar: '  ' },
    });
    expect(created.statusCode).toBe(201);
    const plan = created.json().data;
    expect(plan.description_translations).toEqual({ es: 'Fibra rápida para la familia.' });
    expect(plan.description).toBe('Fast fiber for the family.');

    const show = async (lang: string) => (await call('GET', `/plans/${plan.id}?lang=${lang}`)).json().data.description;
    expect(await show('es')).toBe('Fibra rápida para la familia.');
    expect(await show('ar')).toBe('Fast fiber for the family.');
    expect(await show('de')).toBe('Fast fiber for the family.');
    const list = (await call('GET', '/plans?lang=es&status=active')).json().data.items;
    expect(list.find((p: { id: string }) => p.id === plan.id).description).toBe('Fibra rápida para la familia.');

    const updated = await call('PUT', `/plans/${plan.id}`, 'admin', {
      description_translations: { ar: 'ألياف سريعة للعائلة.' },
    });
    expect(updated.json().data.description_translations).toEqual({ ar: 'ألياف سريعة للعائلة.' });
    expect(await show('ar')).toBe('ألياف سريعة للعائلة.');
    expect(await show('es')).toBe('Fast fiber for the family.');

    const refused = await call('PUT', `/plans/${plan.id}`, 'admin', {
      description: 'Changed',
      description_translations: { de: 'Schnell' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].field).toBe('description_translations.de');
    const tooLong = await call('PUT', `/plans/${plan.id}`, 'admin', {
      description_translations: { es: 'x'.repeat(2001) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect((await call('GET', `/plans/${plan.id}`)).json().data).toMatchObject({
      description: 'Fast fiber for the family.',
      description_translations: { ar: 'ألياف سريعة للعائلة.' },
    });
  });
});
