import type { ApiSuccess, PagePagination } from '../../contract/envelope';
import type { ContactInput } from '../../contract/schemas/contact';
import type { PublicStatus } from '../../contract/schemas/incident';
import type { Plan } from '../../contract/schemas/plan';
import type { Policy, PolicyType, PublicSettings } from '../../contract/schemas/settings';
import { httpClient } from '../../providers/http-client';

/**
 * The public site's calls. The site has no Refine (it must stay light), so it uses the one shared HTTP client
 * directly: same base path, time-out, error normalisation and silent session refresh as the portal.
 */
async function fetchActivePlans(): Promise<Plan[]> {
  const res = await httpClient.get<ApiSuccess<{ items: Plan[]; pagination: PagePagination }>>('/plans', {
    params: { status: 'active', sort: 'sort_order', order: 'asc', limit: 100 },
    fallbackMessage: 'Failed to fetch plans',
  });
  return res.data.data.items;
}

/** The plans asked for at start-up, not yet taken by the page that shows them; and their answer once it is in. */
let prefetchedPlans: Promise<Plan[]> | null = null;
let answeredPlans: Plan[] | null = null;

export const siteApi = {
  /** The active plans; the start-up's prefetched answer the first time, when there is one. */
  activePlans(): Promise<Plan[]> {
    const prefetched = prefetchedPlans;
    prefetchedPlans = null;
    answeredPlans = null;
    return prefetched ?? fetchActivePlans();
  },
  /** The start-up's answer if it is already in (taken once), so the page draws the cards in its first render. */
  takeAnsweredPlans(): Plan[] | null {
    const plans = answeredPlans;
    if (plans) {
      answeredPlans = null;
      prefetchedPlans = null;
    }
    return plans;
  },
  /**
   * Asks for the active plans at start-up (src/main.tsx), beside the download of the site's code rather than after
   * it has run and rendered: the plan cards are the largest paint of / and /plans (issue 34, Lighthouse's LCP), and
   * drawn in the page's first render they push nothing on screen aside (its layout shift).
   */
  prefetchActivePlans(): Promise<unknown> {
    prefetchedPlans ??= fetchActivePlans();
    const asked = prefetchedPlans;
    // A failure is the page's to show when it takes the answer.
    return asked.then(
      (plans) => {
        if (prefetchedPlans === asked) answeredPlans = plans;
      },
      () => {},
    );
  },
  async publicSettings(): Promise<PublicSettings> {
    const res = await httpClient.get<ApiSuccess<PublicSettings>>('/settings/public');
    return res.data.data;
  },
  /** A policy in `lang` when the ISP wrote it in that language, else in its default language (issue 37). */
  async policy(type: PolicyType, lang: string): Promise<Policy> {
    const res = await httpClient.get<ApiSuccess<Policy>>(`/settings/policies/${type}`, { params: { lang } });
    return res.data.data;
  },
  /** The service status: current incidents and planned maintenance by area, recently resolved ones (issue 38). */
  async status(): Promise<PublicStatus> {
    const res = await httpClient.get<ApiSuccess<PublicStatus>>('/status');
    return res.data.data;
  },
  async submitContact(values: ContactInput): Promise<string> {
    const res = await httpClient.post<ApiSuccess<unknown>>('/contact', values, {
      fallbackMessage: 'Contact form submission failed. Please try again.',
    });
    return res.data.message;
  },
};
