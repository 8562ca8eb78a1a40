/**
 * The screen matrix in Spanish, a left-to-right language whose texts run longer than English
 * (tests/helpers/screens-language.ts): the public site and the customer at 390 and 1366 px, the admin's routes on a
 * phone (where a longer text breaks a layout; the Arabic and pseudo-locale runs see them at 1366), with axe.
 */
import { languageMatrix } from '../helpers/screens-language';

languageMatrix('es', {
  public: [390, 1366],
  roles: [
    { role: 'user', sizes: [390, 1366] },
    { role: 'admin', sizes: [390] },
  ],
  axe: true,
});
