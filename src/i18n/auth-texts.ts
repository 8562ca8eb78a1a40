/**
 * The sign-in, registration, password and e-mail confirmation screens' texts (and the profile form's labels), added
 * by those screens when they load: a customer's home does not download them (its bundle budget, npm run bench:web).
 */
import { auth } from './en/auth';
import { addMessages } from './index';

addMessages(auth);
