/**
 * The texts of the signed-in portal's first screen (the dashboard, the sign-in and e-mail banners), added by
 * the portal's code (src/App.tsx imports this first). The public site does not download them; the other
 * screens' texts come with the first of those screens (./screens.ts).
 */
import { addMessages } from './index';
import { auth } from './en/auth';
import { dashboard } from './en/dashboard';

addMessages({ ...auth, ...dashboard });
