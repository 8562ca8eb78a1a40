/**
 * The texts of the signed-in portal's first screen (the dashboard, the sign-in and e-mail banners), added by
 * the portal's code (src/App.tsx imports this first). The public site does not download them; the other
 * screens' texts come with the first of those screens (./screens.ts).
 */
import { addMessages } from './index';
import { auth } from './en/auth';
import { dashboard } from './en/dashboard';
import { home } from './en/home';

/**
 * A resource's own texts (resources/<folder>/i18n.ts, e.g. a scaffolded one's): a few lines each, with the
 * portal so its menu label is there when the menu is drawn.
 */
const resourceTexts = import.meta.glob<Record<string, string>>('../../resources/*/i18n.ts', {
  eager: true,
  import: 'default',
});

addMessages({ ...auth, ...dashboard, ...home, ...Object.assign({}, ...Object.values(resourceTexts)) });
