/** The screen matrix in Arabic, right to left: tests/helpers/screens-language.ts. */
import { languageMatrix } from '../helpers/screens-language';

languageMatrix('ar', ['user', 'admin']);
