import { t } from '../i18n';

export function ComingSoonNote({ screen }: { screen: string }) {
  return (
    <section className="site-card" data-testid="coming-soon">
      <h2>{t('app.comingSoon.title')}</h2>
      <p>{t('app.comingSoon.text', { screen })}</p>
    </section>
  );
}
