/**
 * The public site shows the ISP's own content (FAQ, achievements, about, policies, plan descriptions) in the
 * visitor's language when the ISP gave it, else in its default language, and follows a switch of language (issue 37).
 */
import { useEffect, useState } from 'react';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { Plan } from '../../contract/schemas/plan';
import type { PublicSettings } from '../../contract/schemas/settings';
import { getLocale } from '../../src/i18n';
import { onLanguageChange, switchLanguage } from '../../src/i18n/language';
import { siteApi } from '../../src/site/api';
import { AboutPage, PolicyPage } from '../../src/site/pages/Pages';
import { PlanCards } from '../../src/site/pages/PlanCards';
import { Faq } from '../../src/site/pages/Sections';
import { loadInjectedSettings, usePublicSettings } from '../../src/site/portal-settings';

const settings: PublicSettings = {
  company: {
    name: 'Riverside Fibre',
    logo_url: null,
    address: '1 Main St',
    support_email: 'help@example.net',
    support_phone: '+1 555 0100',
    social: { facebook: '', twitter: '', instagram: '', linkedin: '' },
  },
  currency: 'USD',
  tax_rate_bp: 0,
  achievements: [{ label: 'Happy customers', value: '12,000+' }],
  faq: [{ question: 'How long does installation take?', answer: 'Three working days.' }],
  about: 'We are a local provider.',
  coverage_areas: [],
  languages: { default: 'en', offered: ['en', 'es', 'ar'] },
  content_language: 'en',
  content_translations: {
    es: {
      faq: [{ question: '¿Cuánto tarda la instalación?', answer: 'Tres días hábiles.' }],
      about: 'Somos un proveedor local.',
    },
  },
};

const plan: Plan = {
  id: crypto.randomUUID(),
  name: 'Fibra 300',
  slug: 'fibra-300',
  description: 'Fast fiber for the family.',
  description_translations: { es: 'Fibra rápida para la familia.' },
  download_mbps: 300,
  upload_mbps: 50,
  data_cap_gb: null,
  price: 4999,
  setup_fee: 0,
  currency: 'USD',
  billing_cycle: 'monthly',
  features: [],
  is_featured: false,
  sort_order: 0,
  status: 'active',
  created_at: '',
  updated_at: '',
};

/** As src/main.tsx's Root: a switch of language re-renders the app from the top. */
function Site() {
  const [, setLanguage] = useState(getLocale);
  useEffect(() => onLanguageChange(() => setLanguage(getLocale())), []);
  const s = usePublicSettings();
  return (
    <MemoryRouter>
      <AboutPage />
      <Faq settings={s} />
      <PlanCards />
      <PolicyPage type="privacy-policy" />
    </MemoryRouter>
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});
afterAll(() => switchLanguage('en'));

describe('the ISP content in the visitor language', () => {
  it('shows the Spanish FAQ, about, plan description and policy, the default achievements, and switches back', async () => {
    const doc = document.implementation.createHTMLDocument();
    doc.head.innerHTML = `<script id="portal-settings" type="application/json">${JSON.stringify(settings)}</script>`;
    expect(loadInjectedSettings(doc)).not.toBeNull();
    vi.spyOn(siteApi, 'activePlans').mockResolvedValue([plan]);
    const policy = vi.spyOn(siteApi, 'policy').mockImplementation(async (type, lang) => ({
      type,
      markdown: lang === 'es' ? 'No vendemos sus datos.' : 'We never sell your data.',
      updated_at: null,
    }));

    await switchLanguage('es');
    render(<Site />);
    expect(await screen.findByText('¿Cuánto tarda la instalación?')).toBeTruthy();
    expect(screen.getByText('Somos un proveedor local.')).toBeTruthy();
    // No Spanish achievements: the default language's.
    expect(screen.getByText('Happy customers')).toBeTruthy();
    expect(await screen.findByText('Fibra rápida para la familia.')).toBeTruthy();
    expect(await screen.findByText('No vendemos sus datos.')).toBeTruthy();
    expect(policy).toHaveBeenLastCalledWith('privacy-policy', 'es');
    expect(screen.queryByText('How long does installation take?')).toBeNull();

    await act(() => switchLanguage('en'));
    expect(await screen.findByText('How long does installation take?')).toBeTruthy();
    expect(screen.getByText('We are a local provider.')).toBeTruthy();
    expect(screen.getByText('Fast fiber for the family.')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('We never sell your data.')).toBeTruthy());
    expect(policy).toHaveBeenLastCalledWith('privacy-policy', 'en');

    // Arabic is offered but has no version of its own: everything in the default language.
    await act(() => switchLanguage('ar'));
    expect(await screen.findByText('How long does installation take?')).toBeTruthy();
    expect(screen.getByText('Fast fiber for the family.')).toBeTruthy();
    expect(policy).toHaveBeenLastCalledWith('privacy-policy', 'ar');
  });
});
