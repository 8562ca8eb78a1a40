import { t } from '../i18n';

/** Shown while a page's code loads (spec §2). Plain markup so it costs the public bundle nothing. */
export function LoadingScreen() {
  return (
    <div className="center-screen" role="status" aria-live="polite" data-testid="loading-screen">
      <h2>{t('app.loading.title', { name: t('app.name') })}</h2>
      <p>{t('app.loading.text')}</p>
    </div>
  );
}
