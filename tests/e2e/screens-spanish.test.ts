/** The screen matrix in Spanish (a left-to-right language): tests/helpers/screens-language.ts. */
import { languageMatrix } from '../helpers/screens-language';

languageMatrix('es', ['user', 'admin']);
