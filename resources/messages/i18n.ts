/** The customer's message settings and the staff's message screens (issue 38), with the shell. */
import { messaging } from '../../src/i18n/en/messaging';

export default messaging;
