/**
 * The texts of the signed-in portal's first screen (the customer's home; the sign-in screens' come with them:
 * ./auth-texts.ts), added by
 * the portal's code (src/App.tsx imports this first). The public site does not download them; the staff
 * dashboard's come with its code (./staff-dashboard.ts), the other screens' with the first of them (./screens.ts).
 */
import { addMessages } from './index';
import { home } from './en/home';

/**
 * A resource's own texts (resources/<folder>/i18n.ts, e.g. a scaffolded one's): a few lines each, with the
 * portal so its menu label is there when the menu is drawn.
 */
const resourceTexts = import.meta.glob<Record<string, string>>('../../resources/*/i18n.ts', {
  eager: true,
  import: 'default',
});

addMessages({ ...home, ...Object.assign({}, ...Object.values(resourceTexts)) });
