import '../../i18n/site';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { PolicyType } from '../../../contract/schemas/settings';
import { useAuthState } from '../../../providers/auth-store';
import { getLocale, t } from '../../i18n';
import { siteApi } from '../api';
import { Markdown } from '../markdown';
import { usePageMeta } from '../meta';
import { usePublicSettings } from '../portal-settings';
import { ContactForm } from './ContactForm';
import { PlanCards } from './PlanCards';
import { Achievements, CompanyDetails, CoverageCheck, Faq } from './Sections';

export function HomePage() {
  const settings = usePublicSettings();
  const { isAuthenticated } = useAuthState();
  usePageMeta(null, t('site.home.description'));
  return (
    <>
      <section className="site-hero">
        <h1>{t('site.hero.title')}</h1>
        <p>{t('site.hero.text')}</p>
        <div className="site-actions">
          <a className="site-button" href="#pricing">
            {t('site.hero.cta')}
          </a>
          <a className="site-button secondary" href="#coverage">
            {t('site.hero.checkCoverage')}
          </a>
          {isAuthenticated && (
            <Link className="site-button secondary" to="/dashboard">
              {t('app.dashboard')}
            </Link>
          )}
        </div>
      </section>
      <Achievements settings={settings} />
      <section className="site-section" id="pricing" aria-labelledby="pricing-title">
        <h2 id="pricing-title">{t('site.pricing.title')}</h2>
        <p>{t('site.pricing.text')}</p>
        <PlanCards />
      </section>
      <CoverageCheck settings={settings} />
      <Faq settings={settings} />
      <ContactSection />
    </>
  );
}

function ContactSection() {
  const settings = usePublicSettings();
  return (
    <section className="site-section contact-section" id="contact" aria-labelledby="contact-title">
      <div>
        <h2 id="contact-title">{t('site.contact.title')}</h2>
        <p>{t('site.contact.text')}</p>
        <h3>{t('site.contact.details')}</h3>
        <CompanyDetails settings={settings} />
      </div>
      <ContactForm />
    </section>
  );
}

export function PlansPage() {
  usePageMeta(t('site.nav.plans'), t('site.plans.description'));
  return (
    <section className="site-section">
      <h1>{t('site.pricing.title')}</h1>
      <p>{t('site.pricing.text')}</p>
      <PlanCards headingLevel={2} />
    </section>
  );
}

export function AboutPage() {
  const settings = usePublicSettings();
  const name = t('app.name');
  usePageMeta(t('site.nav.about'), t('site.about.description'));
  return (
    <>
      <section className="site-section">
        <h1>{t('site.about.title', { name })}</h1>
        {/* The ISP's own text (issue 37: in the reader's language when given), else the portal's. */}
        {settings?.about?.trim() ? (
          settings.about
            .split(/\n\s*\n/)
            .filter((p) => p.trim())
            .map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of one text, never reordered
              <p key={i} className={i === 0 ? 'site-lead' : undefined}>
                {p.trim()}
              </p>
            ))
        ) : (
          <p className="site-lead">{t('site.about.text', { name })}</p>
        )}
        <CompanyDetails settings={settings} />
      </section>
      <Achievements settings={settings} />
      <CoverageCheck settings={settings} />
    </>
  );
}

export function ContactPage() {
  usePageMeta(t('site.nav.contact'), t('site.contact.description'));
  return (
    <>
      <h1 className="site-page-title">{t('site.contact.title')}</h1>
      <ContactSection />
    </>
  );
}

const POLICY_TITLES: Record<PolicyType, string> = {
  'privacy-policy': 'site.footer.privacy',
  'terms-condition': 'site.footer.terms',
  'refund-policy': 'site.footer.refund',
};

/** One policy screen for the three policy routes, taking the type (spec §2). */
export function PolicyPage({ type }: { type: PolicyType }) {
  const lang = getLocale();
  const [state, setState] = useState<{
    key: string;
    markdown: string | null;
    failed: boolean;
  } | null>(null);
  const title = t(POLICY_TITLES[type]);
  usePageMeta(title, t('site.policy.description', { title: title.toLowerCase() }));
  useEffect(() => {
    let live = true;
    // In the reader's language (issue 37), asked again when they switch.
    const key = `${type}:${lang}`;
    siteApi.policy(type, lang).then(
      (p) => live && setState({ key, markdown: p.markdown, failed: false }),
      () => live && setState({ key, markdown: null, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [type, lang]);
  // While another language's version loads, the one shown stays (no flash of "Loading").
  const current =
    state?.key === `${type}:${lang}` || (state?.key.startsWith(`${type}:`) && !state.failed) ? state : null;
  return (
    <article className="site-section site-policy" data-testid="policy-page">
      <h1>{title}</h1>
      {!current && <p className="site-note">{t('site.loading')}</p>}
      {current?.failed && <p className="site-note">{t('site.policy.failed')}</p>}
      {current &&
        !current.failed &&
        (current.markdown?.trim() ? <Markdown source={current.markdown} /> : <p>{t('site.policy.empty')}</p>)}
    </article>
  );
}
