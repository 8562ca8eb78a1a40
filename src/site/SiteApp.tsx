import '../i18n/site';
import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useAuthState } from '../../providers/auth-store';
import { t } from '../i18n';
import { LanguageSelect } from '../i18n/LanguageSelect';
import { POLICY_TYPES } from './paths';
import { AboutPage, ContactPage, HomePage, PlansPage, PolicyPage } from './pages/Pages';
import { CompanyDetails } from './pages/Sections';
import { StatusPage } from './pages/StatusPage';
import { usePublicSettings } from './portal-settings';
import { ToastProvider } from './Toasts';
import './site.css';

function Page({ pathname }: { pathname: string }) {
  const policy = POLICY_TYPES.find((p) => pathname === `/${p}`);
  if (policy) return <PolicyPage type={policy} />;
  switch (pathname) {
    case '/about':
      return <AboutPage />;
    case '/contact':
      return <ContactPage />;
    case '/plans':
      return <PlansPage />;
    case '/status':
      return <StatusPage />;
    default:
      return <HomePage />;
  }
}

const SOCIAL = ['facebook', 'twitter', 'instagram', 'linkedin'] as const;

/** The public site: its own light entry, so a visitor's first load does not download the back office. */
export default function SiteApp() {
  const { pathname } = useLocation();
  const { isAuthenticated } = useAuthState();
  const settings = usePublicSettings();
  const [menuOpen, setMenuOpen] = useState(false);
  const social = SOCIAL.filter((s) => settings?.company.social[s]);

  return (
    <ToastProvider>
      <div className="site">
        <header className="site-header">
          <Link to="/" className="site-brand">
            {settings?.company.logo_url && <img src={settings.company.logo_url} alt="" height={28} />}
            {t('app.name')}
          </Link>
          <LanguageSelect />
          <button
            type="button"
            className="site-menu-toggle"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen(!menuOpen)}
          >
            {t('site.nav.menu')}
          </button>
          {/* biome-ignore lint/a11y/useKeyWithClickEvents: the click bubbles up from the links (which the keyboard activates too) to close the phone menu */}
          <nav
            className={`site-nav${menuOpen ? ' open' : ''}`}
            aria-label={t('site.nav.main')}
            onClick={() => setMenuOpen(false)}
          >
            <NavLink to="/" end>
              {t('site.nav.home')}
            </NavLink>
            <NavLink to="/plans">{t('site.nav.plans')}</NavLink>
            <NavLink to="/about">{t('site.nav.about')}</NavLink>
            <NavLink to="/contact">{t('site.nav.contact')}</NavLink>
            {isAuthenticated ? (
              <Link className="site-cta" to="/dashboard">
                {t('app.dashboard')}
              </Link>
            ) : (
              <>
                <Link to="/login">{t('app.login')}</Link>
                <Link className="site-cta" to="/register">
                  {t('app.register')}
                </Link>
              </>
            )}
          </nav>
        </header>
        <main className="site-main page-fade" key={pathname}>
          <Page pathname={pathname} />
        </main>
        <footer className="site-footer">
          <CompanyDetails settings={settings} />
          <nav aria-label={t('site.footer.policies')} className="site-footer-links">
            <Link to="/privacy-policy">{t('site.footer.privacy')}</Link>
            <Link to="/terms-condition">{t('site.footer.terms')}</Link>
            <Link to="/refund-policy">{t('site.footer.refund')}</Link>
            <Link to="/status">{t('site.footer.status')}</Link>
          </nav>
          {social.length > 0 && (
            <nav aria-label={t('site.footer.follow')} className="site-footer-links">
              {social.map((s) => (
                <a key={s} href={settings!.company.social[s]} rel="noopener noreferrer" target="_blank">
                  {s[0].toUpperCase() + s.slice(1)}
                </a>
              ))}
            </nav>
          )}
          <span className="site-copy">{t('app.footer', { year: new Date().getFullYear(), name: t('app.name') })}</span>
        </footer>
      </div>
    </ToastProvider>
  );
}
