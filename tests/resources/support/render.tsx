import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { App as AntdApp } from 'antd';
import { Refine } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { accessControlProvider } from '../../../providers/access-control-provider';
import { createDataProvider } from '../../../providers/data-provider';
import { createHttpClient } from '../../../providers/http-client';
import { notificationProvider } from '../../../providers/notification-provider';
import { refineResources } from '../../../resources';
import type { FakeApi } from '../../providers/support/fake-api';

export let currentUrl = '';
function UrlProbe() {
  const l = useLocation();
  currentUrl = l.pathname + l.search;
  return null;
}

export interface RenderOptions {
  /** Also mount the real accessControlProvider (the role matrix), for screens that hide actions by role. */
  accessControl?: boolean;
  /** Refine's syncWithLocation (on by default, as in the app's back office). */
  syncWithLocation?: boolean;
}

/** The screen under the real Refine, data provider and http client, answered by a FakeApi. */
export function renderScreen(
  api: FakeApi,
  path: string,
  routes: { path: string; element: ReactNode }[],
  opts: RenderOptions = {},
) {
  const http = createHttpClient({ adapter: api.adapter, navigate: () => undefined });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AntdApp>
        <Refine
          routerProvider={routerProvider}
          dataProvider={createDataProvider(http)}
          notificationProvider={notificationProvider}
          accessControlProvider={opts.accessControl ? accessControlProvider : undefined}
          resources={refineResources()}
          options={{
            disableTelemetry: true,
            syncWithLocation: opts.syncWithLocation ?? true,
            warnWhenUnsavedChanges: false,
            reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false } } } },
          }}
        >
          <UrlProbe />
          <Routes>
            {routes.map((r) => (
              <Route key={r.path} path={r.path} element={r.element} />
            ))}
          </Routes>
        </Refine>
      </AntdApp>
    </MemoryRouter>,
  );
}

export function toastText(): string {
  return document.querySelector('.ant-notification')?.textContent ?? '';
}
