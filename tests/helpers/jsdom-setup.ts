import { configure } from '@testing-library/react';
// The portal's texts, as the portal adds them in the browser (src/App.tsx, src/routes.tsx): tests render its
// screens alone.
import '../../src/i18n/portal';
import '../../src/i18n/screens';

// antd reads matchMedia for responsive layout; jsdom does not implement it.
if (typeof window !== 'undefined' && !window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

// findBy*/waitFor give up after 1 s by default. Two test workers on two cores (and the browser suite beside them)
// can hold a render longer than that; a screen that never shows the expected state still fails, after 5 s.
configure({ asyncUtilTimeout: 5_000 });
