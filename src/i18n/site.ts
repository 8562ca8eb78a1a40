/**
 * The public site's texts, added by its code (src/site/SiteApp.tsx imports this first): the signed-in portal does
 * not download them (the customer's home is within its bundle budget, npm run bench:web).
 */
import { site } from './en/site';
import { addMessages } from './index';

addMessages(site);
