/** The screen matrix in the pseudo-locale (no English that skipped translation): tests/helpers/screens-language.ts. */
import { languageMatrix } from '../helpers/screens-language';

languageMatrix('en-XA', ['user', 'admin']);
