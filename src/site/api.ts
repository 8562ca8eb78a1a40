import type { ApiSuccess, PagePagination } from '../../contract/envelope';
import type { ContactInput } from '../../contract/schemas/contact';
import type { Plan } from '../../contract/schemas/plan';
import type { Policy, PolicyType, PublicSettings } from '../../contract/schemas/settings';
import { httpClient } from '../../providers/http-client';

/**
 * The public site's calls. The site has no Refine (it must stay light), so it uses the one shared HTTP client
 * directly: same base path, time-out, error normalisation and silent session refresh as the portal.
 */
export const siteApi = {
  async activePlans(): Promise<Plan[]> {
    const res = await httpClient.get<ApiSuccess<{ items: Plan[]; pagination: PagePagination }>>('/plans', {
      params: { status: 'active', sort: 'sort_order', order: 'asc', limit: 100 },
      fallbackMessage: 'Failed to fetch plans',
    });
    return res.data.data.items;
  },
  async publicSettings(): Promise<PublicSettings> {
    const res = await httpClient.get<ApiSuccess<PublicSettings>>('/settings/public');
    return res.data.data;
  },
  async policy(type: PolicyType): Promise<Policy> {
    const res = await httpClient.get<ApiSuccess<Policy>>(`/settings/policies/${type}`);
    return res.data.data;
  },
  async submitContact(values: ContactInput): Promise<string> {
    const res = await httpClient.post<ApiSuccess<unknown>>('/contact', values, {
      fallbackMessage: 'Contact form submission failed. Please try again.',
    });
    return res.data.message;
  },
};
