import './zod-jitless';
import { StrictMode, Suspense, lazy, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import { Splash, SPLASH_DURATION_MS } from './layout/Splash';
import { LoadingScreen } from './layout/LoadingScreen';
import { SITE_PATHS } from './site/paths';
import { loadInjectedSettings } from './site/portal-settings';
import { bootstrapSession } from '../providers/auth-provider';
import './styles.css';

// Two entries: the public site stays light; the Refine back office (antd, tables, charts) loads only when a
// portal route is opened.
const SiteApp = lazy(() => import('./site/SiteApp'));
const loadPortalApp = () => import('./App');
const PortalApp = lazy(loadPortalApp);

function Root() {
  const [splashDone, setSplashDone] = useState(false);
  useEffect(() => {
    // The startup session sequence runs during the splash; its failures are only logged (spec §4).
    void bootstrapSession();
    // Outside the public site the back office is needed as soon as the splash ends: fetch it during the splash
    // instead of after it (the same module promise the lazy route awaits).
    if (!SITE_PATHS.includes(window.location.pathname)) void loadPortalApp();
    const id = setTimeout(() => setSplashDone(true), SPLASH_DURATION_MS);
    return () => clearTimeout(id);
  }, []);
  if (!splashDone) return <Splash />;
  return (
    <div className="app-fade-in">
      <BrowserRouter>
        <Suspense fallback={<LoadingScreen />}>
          <Routes>
            {SITE_PATHS.map((path) => (
              <Route key={path} path={path} element={<SiteApp />} />
            ))}
            <Route path="*" element={<PortalApp />} />
          </Routes>
        </Suspense>
      </BrowserRouter>
    </div>
  );
}

// The admin's product name (splash, loading screen, titles) is in the page the server sent.
loadInjectedSettings();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
