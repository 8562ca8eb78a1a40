/**
 * Adds the texts of the portal's screens. src/routes.tsx loads this before any lazily loaded screen, so its
 * modules find their texts even while they load (a few build labels or form rules at import time).
 */
import { addMessages } from './index';
import { screens } from './en/screens';

addMessages(screens);
