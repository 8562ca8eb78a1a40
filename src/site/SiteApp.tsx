import { useEffect } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { t } from '../i18n';
import { useAuthState } from '../../providers/auth-store';
import { ComingSoonNote } from './ComingSoonNote';
import './site.css';

const PAGES: Record<string, { screen: string; title: string }> = {
  '/': { screen: 'screen.home', title: 'app.name' },
  '/about': { screen: 'screen.about', title: 'site.nav.about' },
  '/contact': { screen: 'screen.contact', title: 'site.nav.contact' },
  '/plans': { screen: 'screen.plans', title: 'site.nav.plans' },
  '/privacy-policy': { screen: 'screen.policy.privacy-policy', title: 'site.footer.privacy' },
  '/terms-condition': { screen: 'screen.policy.terms-condition', title: 'site.footer.terms' },
  '/refund-policy': { screen: 'screen.policy.refund-policy', title: 'site.footer.refund' },
};

/** The public site: its own light entry, so a visitor's first load does not download the back office. */
export default function SiteApp() {
  const { pathname } = useLocation();
  const { isAuthenticated } = useAuthState();
  const page = PAGES[pathname] ?? PAGES['/'];
  useEffect(() => {
    document.title = pathname === '/' ? t('app.name') : `${t(page.title)} | ${t('app.name')}`;
  }, [pathname, page.title]);

  return (
    <div className="site page-fade" key={pathname}>
      <header className="site-header">
        <Link to="/" className="site-brand">
          {t('app.name')}
        </Link>
        <nav className="site-nav" aria-label="Main">
          <NavLink to="/" end>{t('site.nav.home')}</NavLink>
          <NavLink to="/plans">{t('site.nav.plans')}</NavLink>
          <NavLink to="/about">{t('site.nav.about')}</NavLink>
          <NavLink to="/contact">{t('site.nav.contact')}</NavLink>
          {isAuthenticated ? (
            <Link className="site-cta" to="/dashboard">{t('app.dashboard')}</Link>
          ) : (
            <>
              <Link to="/login">{t('app.login')}</Link>
              <Link className="site-cta" to="/register">{t('app.register')}</Link>
            </>
          )}
        </nav>
      </header>
      <main className="site-main">
        {pathname === '/' && (
          <section className="site-hero">
            <h1>{t('site.hero.title')}</h1>
            <p>{t('site.hero.text')}</p>
            <div className="site-actions">
              <Link className="site-button" to={isAuthenticated ? '/dashboard' : '/register'}>
                {isAuthenticated ? t('app.dashboard') : t('app.register')}
              </Link>
              {!isAuthenticated && (
                <Link className="site-button secondary" to="/login">{t('app.login')}</Link>
              )}
            </div>
          </section>
        )}
        <ComingSoonNote screen={t(page.screen)} />
      </main>
      <footer className="site-footer">
        <span>{t('app.footer', { year: new Date().getFullYear(), name: t('app.name') })}</span>
        <span>
          <Link to="/privacy-policy">{t('site.footer.privacy')}</Link>
          <Link to="/terms-condition">{t('site.footer.terms')}</Link>
          <Link to="/refund-policy">{t('site.footer.refund')}</Link>
        </span>
      </footer>
    </div>
  );
}
