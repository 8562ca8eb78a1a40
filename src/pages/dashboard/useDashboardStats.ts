/** GET /dashboard/stats through the app's data provider, with the 5-minute cache of stats-cache.ts. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useDataProvider } from '@refinedev/core';
import type { DashboardData } from '../../../contract/schemas/dashboard';
import { t } from '../../i18n';
import { dashboardStatsCache, loadDashboardStats, type DashboardStatsCache, type StatsRequest } from './stats-cache';

export interface DashboardStatsState {
  data: DashboardData | null;
  loading: boolean;
  error: string | null;
  lastUpdated: number | null;
  fromCache: boolean;
  /** Fetch again, skipping the cache. */
  refresh: () => void;
}

/** request null: nothing to load yet (a custom range without both dates). */
export function useDashboardStats(
  owner: string,
  request: StatsRequest | null,
  cache: DashboardStatsCache = dashboardStatsCache,
): DashboardStatsState {
  const getProvider = useDataProvider();
  const [state, setState] = useState<Omit<DashboardStatsState, 'refresh'>>({
    data: null,
    loading: !!request,
    error: null,
    lastUpdated: null,
    fromCache: false,
  });
  const latest = useRef(0);
  const key = request ? `${request.timeFrame}|${request.startDate ?? ''}|${request.endDate ?? ''}` : '';

  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for request, which is a new object each render
  const load = useCallback(
    async (force: boolean) => {
      if (!request) return;
      const ticket = ++latest.current;
      cache.switchOwner(owner);
      setState((s) => ({ ...s, loading: true, error: null }));
      try {
        const loaded = await loadDashboardStats(
          async (r) => {
            const res = await getProvider().custom!({
              url: '/dashboard/stats',
              method: 'get',
              query: {
                timeFrame: r.timeFrame,
                ...(r.timeFrame === 'custom' ? { startDate: r.startDate, endDate: r.endDate } : {}),
              },
              meta: { fallbackMessage: t('errors.dashboard.stats') },
            });
            return res.data as unknown as DashboardData;
          },
          cache,
          request,
          { force },
        );
        if (ticket !== latest.current) return;
        setState({
          data: loaded.data,
          loading: false,
          error: null,
          lastUpdated: loaded.fetchedAt,
          fromCache: loaded.fromCache,
        });
      } catch (error) {
        if (ticket !== latest.current) return;
        const message = error instanceof Error && error.message ? error.message : t('errors.unknown');
        setState((s) => ({ ...s, loading: false, error: message }));
      }
    },
    [key, owner, cache, getProvider],
  );

  useEffect(() => {
    void load(false);
  }, [load]);

  const refresh = useCallback(() => void load(true), [load]);
  return { ...state, loading: request ? state.loading : false, refresh };
}
