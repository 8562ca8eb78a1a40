import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { ConfigProvider, theme as antdTheme, type ThemeConfig } from 'antd';
import { currentAntdLocale, currentDirection } from '../i18n/language';

type Mode = 'light' | 'dark';
const STORAGE_KEY = 'color_mode';
const ColorModeContext = createContext<{ mode: Mode; setMode: (m: Mode) => void }>({
  mode: 'light',
  setMode: () => {},
});

function initialMode(): Mode {
  const stored = typeof localStorage !== 'undefined' ? localStorage.getItem(STORAGE_KEY) : null;
  if (stored === 'light' || stored === 'dark') return stored;
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches
    ? 'dark'
    : 'light';
}

/**
 * antd's default theme with the colours WCAG 2.1 AA asks for (text 4.5:1), found by axe-core on every screen of
 * every role (tests/e2e/screens-phone-a11y.test.ts). The contrast ratios are against the surfaces they sit on.
 *
 * Light: the primary blue one step darker (#0958d9: white on it 6.2, on the menu's grey 5.4; antd's #1677ff
 * gives 4.1 and 3.6), links and default buttons darker when hovered rather than lighter (antd's
 * lighter hover blue is 4.2:1), red, green and orange text colours
 * darker likewise (#cf1322 5.6; antd's #ff4d4f 3.3; green and orange as text only, their tints as antd's), the
 * description greys at 65 % black, and the status tags' text on their tints a shade or two darker (green, gold,
 * orange, cyan, volcano, lime, yellow: 5.1–8.6 instead of 2.8–3.4).
 *
 * Dark: no single blue is both readable as text on the near-black page (needs a light blue) and under white
 * button text (needs a dark one), so the primary is a light blue (#5c99dc, 6.2 on the page) and primary and
 * danger buttons carry dark text (7.1 and 6.3), as Material's dark theme does; links, tabs and the open menu
 * group use the same light blue, and the purple and geek-blue tags a lighter text.
 */
export function themeConfig(mode: Mode, reducedMotion = false): ThemeConfig {
  const dark = mode === 'dark';
  return {
    algorithm: dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    // A reader who asked their system for less motion (WCAG 2.3.3) gets antd's transitions and animations off.
    token: {
      ...(reducedMotion ? { motion: false } : {}),
      ...(dark
        ? {
            colorPrimary: '#69b1ff',
            colorError: '#ff7875',
            colorLink: '#69b1ff',
            colorLinkHover: '#b2d6f3',
            borderRadius: 6,
            colorTextDescription: 'rgba(255, 255, 255, 0.65)',
            colorTextTertiary: 'rgba(255, 255, 255, 0.65)',
          }
        : {
            colorPrimary: '#0958d9',
            colorError: '#cf1322',
            colorSuccessText: '#237804',
            colorWarningText: '#ad4e00',
            colorLink: '#0958d9',
            colorLinkHover: '#003eb3',
            colorPrimaryHover: '#003eb3',
            colorPrimaryActive: '#002c8c',
            borderRadius: 6,
            colorTextDescription: 'rgba(0, 0, 0, 0.65)',
            colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
          }),
    },
    components: {
      Button: dark ? { primaryColor: '#000000', dangerColor: '#000000' } : {},
      Tag: dark
        ? { purple7: '#ab7ae0', geekblue7: '#7f9ef3' }
        : {
            colorSuccess: '#237804',
            colorWarning: '#ad4e00',
            colorError: '#a8071a',
            colorInfo: '#0958d9',
            green7: '#237804',
            gold7: '#874d00',
            orange7: '#ad4e00',
            cyan7: '#006d75',
            volcano7: '#ad2102',
            lime7: '#3f6600',
            yellow7: '#614700',
          },
      // The selected entry on its tint, and the group holding it (antd colours it primary).
      Menu: dark
        ? { itemSelectedColor: '#ffffff', subMenuItemSelectedColor: '#85b8e8' }
        : { itemSelectedColor: '#0958d9', subMenuItemSelectedColor: '#0958d9' },
      Tabs: dark
        ? {
            itemSelectedColor: '#85b8e8',
            itemActiveColor: '#85b8e8',
            itemHoverColor: '#b2d6f3',
            inkBarColor: '#85b8e8',
          }
        : {},
      Breadcrumb: dark ? { linkColor: 'rgba(255, 255, 255, 0.65)' } : { linkColor: 'rgba(0, 0, 0, 0.65)' },
      // "No data" in an empty table or list is antd's disabled grey (1.8:1); it is text to read, not a disabled control.
      Table: dark ? { colorTextDisabled: 'rgba(255, 255, 255, 0.6)' } : { colorTextDisabled: 'rgba(0, 0, 0, 0.6)' },
      List: dark ? { colorTextDisabled: 'rgba(255, 255, 255, 0.6)' } : { colorTextDisabled: 'rgba(0, 0, 0, 0.6)' },
    },
  };
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
const prefersReducedMotion = () => typeof window !== 'undefined' && !!window.matchMedia?.(REDUCED_MOTION).matches;

/** Whether the system asks for less motion, following a change while the portal is open. */
function useReducedMotion(): boolean {
  const [reduced, setReduced] = useState(prefersReducedMotion);
  useEffect(() => {
    const query = typeof window !== 'undefined' ? window.matchMedia?.(REDUCED_MOTION) : undefined;
    if (!query?.addEventListener) return;
    const changed = () => setReduced(query.matches);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);
  return reduced;
}

export function ColorModeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<Mode>(initialMode);
  const reducedMotion = useReducedMotion();
  useEffect(() => {
    localStorage.setItem(STORAGE_KEY, mode);
  }, [mode]);
  return (
    <ColorModeContext.Provider value={{ mode, setMode }}>
      {/* The language's antd texts and direction (src/i18n/language.ts): a new language re-renders from the top. */}
      <ConfigProvider
        theme={themeConfig(mode, reducedMotion)}
        locale={currentAntdLocale()}
        direction={currentDirection()}
      >
        {children}
      </ConfigProvider>
    </ColorModeContext.Provider>
  );
}

export function useColorMode() {
  return useContext(ColorModeContext);
}
