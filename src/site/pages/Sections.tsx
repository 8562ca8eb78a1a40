import '../../i18n/site';
import { useState, type FormEvent } from 'react';
import type { PublicSettings } from '../../../contract/schemas/settings';
import { t } from '../../i18n';

export function Achievements({ settings }: { settings: PublicSettings | null }) {
  if (!settings?.achievements.length) return null;
  return (
    <section className="site-section" aria-labelledby="achievements-title">
      <h2 id="achievements-title">{t('site.achievements.title')}</h2>
      <div className="achievements">
        {settings.achievements.map((a) => (
          <div key={a.label} className="achievement">
            <strong>{a.value}</strong>
            <span>{a.label}</span>
          </div>
        ))}
      </div>
    </section>
  );
}

/** Lets a visitor check whether their town or postcode is served. */
export function CoverageCheck({ settings }: { settings: PublicSettings | null }) {
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<{ found: string | null; query: string } | null>(null);
  const areas = settings?.coverage_areas ?? [];
  function check(e: FormEvent) {
    e.preventDefault();
    const q = query.trim().toLowerCase();
    if (!q) return;
    const hit = areas.find((a) => a.name.toLowerCase().includes(q) || a.postcode?.toLowerCase().startsWith(q));
    setResult({ found: hit ? `${hit.name}${hit.postcode ? ` (${hit.postcode})` : ''}` : null, query: query.trim() });
  }
  return (
    <section className="site-section" id="coverage" aria-labelledby="coverage-title">
      <h2 id="coverage-title">{t('site.coverage.title')}</h2>
      <p>{t('site.coverage.text')}</p>
      {/* biome-ignore lint/a11y/useSemanticElements: the form itself is the search landmark; a <search> wrapper would only add an element */}
      <form className="coverage-form" onSubmit={check} role="search">
        <input
          aria-label={t('site.coverage.title')}
          placeholder={t('site.coverage.placeholder')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button className="site-button" type="submit">
          {t('site.coverage.search')}
        </button>
      </form>
      {result && (
        <p className={`coverage-result ${result.found ? 'yes' : 'no'}`} role="status" data-testid="coverage-result">
          {result.found
            ? t('site.coverage.yes', { area: result.found })
            : t('site.coverage.no', { query: result.query })}
        </p>
      )}
      {areas.length > 0 && (
        <details className="coverage-list">
          <summary>{t('site.coverage.areas')}</summary>
          <ul>
            {areas.map((a) => (
              <li key={`${a.name}-${a.postcode}`}>
                {a.name}
                {a.postcode && ` (${a.postcode})`}
                {a.note && ` — ${a.note}`}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

export function Faq({ settings }: { settings: PublicSettings | null }) {
  if (!settings?.faq.length) return null;
  return (
    <section className="site-section" aria-labelledby="faq-title">
      <h2 id="faq-title">{t('site.faq.title')}</h2>
      {settings.faq.map((f) => (
        <details key={f.question} className="faq-item">
          <summary>{f.question}</summary>
          <p>{f.answer}</p>
        </details>
      ))}
    </section>
  );
}

export function CompanyDetails({ settings }: { settings: PublicSettings | null }) {
  if (!settings) return null;
  const { company } = settings;
  return (
    <address className="company-details">
      <strong>{company.name}</strong>
      {company.address && <span>{company.address}</span>}
      {company.support_email && <a href={`mailto:${company.support_email}`}>{company.support_email}</a>}
      {company.support_phone && (
        <a href={`tel:${company.support_phone.replace(/[^+\d]/g, '')}`}>{company.support_phone}</a>
      )}
    </address>
  );
}
