/**
 * The screen matrix in Arabic, right to left (tests/helpers/screens-language.ts): the public site, the customer and
 * the admin, every route at 390 and 1366 px, with axe.
 */
import { languageMatrix } from '../helpers/screens-language';

languageMatrix('ar', {
  public: [390, 1366],
  roles: [
    { role: 'user', sizes: [390, 1366] },
    { role: 'admin', sizes: [390, 1366] },
  ],
  axe: true,
});
