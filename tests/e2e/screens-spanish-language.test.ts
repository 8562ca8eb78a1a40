/**
 * The screen matrix in Spanish, a left-to-right language whose texts run longer than English
 * (tests/helpers/screens-language.ts): the public site and the customer, every route at 390 and 1366 px, with axe.
 * The staff screens are seen in Arabic and in the pseudo-locale (CI's time).
 */
import { languageMatrix } from '../helpers/screens-language';

languageMatrix('es', {
  public: [390, 1366],
  roles: [{ role: 'user', sizes: [390, 1366] }],
  axe: true,
});
