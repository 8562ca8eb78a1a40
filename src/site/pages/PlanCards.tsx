import '../../i18n/site';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { planDescription } from '../../../contract/content';
import { formatMoney } from '../../../contract/money';
import type { Plan } from '../../../contract/schemas/plan';
import { useAuthState } from '../../../providers/auth-store';
import { getLocale, t } from '../../i18n';
import { siteApi } from '../api';

/**
 * Live active plans from the API; the featured plan is highlighted. Each plan's name is a heading one level
 * below the section's (h3 under the home page's "Pricing" h2, h2 under the plans page's h1).
 */
export function PlanCards({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  // The start-up's answer when it is in (src/main.tsx): the cards are in the first render.
  const [plans, setPlans] = useState<Plan[] | null>(() => siteApi.takeAnsweredPlans());
  const [failed, setFailed] = useState(false);
  const { isAuthenticated } = useAuthState();
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the first render's plans matter: the cards load once
  useEffect(() => {
    if (plans) return;
    siteApi.activePlans().then(setPlans, (e: unknown) => {
      console.warn('[site] plans could not be loaded', e);
      setFailed(true);
    });
  }, []);

  if (failed) return <p className="site-note">{t('site.pricing.failed')}</p>;
  if (!plans)
    return (
      <p className="site-note" aria-busy="true">
        {t('site.loading')}
      </p>
    );
  if (plans.length === 0) return <p className="site-note">{t('site.pricing.empty')}</p>;
  return (
    <div className="plan-grid" data-testid="plan-cards">
      {plans.map((plan) => (
        <article key={plan.id} className={`plan-card${plan.is_featured ? ' featured' : ''}`} data-testid="plan-card">
          {plan.is_featured && <span className="plan-badge">{t('site.pricing.featured')}</span>}
          <Heading>{plan.name}</Heading>
          <p className="plan-price">
            <strong>{formatMoney(plan.price, plan.currency)}</strong>{' '}
            <span>{t(`site.cycle.${plan.billing_cycle}`)}</span>
          </p>
          {planDescription(plan, getLocale()) && (
            <p className="plan-description">{planDescription(plan, getLocale())}</p>
          )}
          <ul>
            <li>{t('site.pricing.download', { speed: plan.download_mbps })}</li>
            <li>{t('site.pricing.upload', { speed: plan.upload_mbps })}</li>
            <li>
              {plan.data_cap_gb === null
                ? t('site.pricing.unlimited')
                : t('site.pricing.cap', { cap: plan.data_cap_gb })}
            </li>
            {plan.usage_tiers?.[0] && <li>{t('site.pricing.fairUse', { gb: plan.usage_tiers[0].after_gb })}</li>}
            <li>
              {plan.setup_fee > 0
                ? t('site.pricing.setupFee', { amount: formatMoney(plan.setup_fee, plan.currency) })
                : t('site.pricing.noSetupFee')}
            </li>
            {plan.features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
          <Link
            className="site-button"
            to={isAuthenticated ? `/dashboard/subscriptions?plan=${plan.id}` : `/register?plan=${plan.id}`}
          >
            {t('site.pricing.subscribe')}
          </Link>
        </article>
      ))}
    </div>
  );
}
