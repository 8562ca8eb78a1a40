/** Every screen on every size and for every user, part one: visitors, customers, admins, technicians (tests/helpers/screens-matrix.ts). */
import { screensMatrix } from '../helpers/screens-matrix';

screensMatrix({ publicSite: true, roles: ['user', 'admin', 'technician'] });
