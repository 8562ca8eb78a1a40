/**
 * The staff dashboard's texts (cards, charts, time frames), added by its modules when they load: a customer's home
 * does not download them (its bundle budget, npm run bench:web).
 */
import { dashboard } from './en/dashboard';
import { addMessages } from './index';

addMessages(dashboard);
