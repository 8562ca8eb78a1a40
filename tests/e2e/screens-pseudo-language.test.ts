/**
 * The screen matrix in the pseudo-locale (tests/helpers/screens-language.ts): every translated text shows as
 * ⟦ṫḗẋṫ⟧, so English on a screen that is not data is a text that skipped translation. The public site and the
 * customer at 390 and 1366 px (the phone's drawer and the desk's menu differ); the admin's menu screens and create
 * pages at 1366 (their records' pages are generated from the same declarations, and CI's time is short). Without
 * axe: its rules see the same page as in English, which the English matrix checks.
 */
import { languageMatrix, PSEUDO } from '../helpers/screens-language';

languageMatrix(PSEUDO, {
  public: [390, 1366],
  roles: [
    { role: 'user', sizes: [390, 1366] },
    { role: 'admin', sizes: [1366], details: false },
  ],
  axe: false,
});
