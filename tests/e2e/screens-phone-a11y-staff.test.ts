/** Every screen on every size and for every user, part two: super admins, billing, support (tests/helpers/screens-matrix.ts). */
import { screensMatrix } from '../helpers/screens-matrix';

screensMatrix({ publicSite: false, roles: ['super_admin', 'billing', 'support'] });
