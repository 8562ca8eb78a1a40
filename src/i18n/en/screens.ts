import type { Dictionary } from '../index';
import { apiTokens } from './api-tokens';
import { audit } from './audit';
import { backups } from './backups';
import { bulkMessages } from './bulk-messages';
import { autopay } from './autopay';
import { credit } from './credit';
import { devices } from './devices';
import { deviceBackups } from './device-backups';
import { installations } from './installations';
import { ipam } from './ipam';
import { invoices } from './invoices';
import { jobs } from './jobs';
import { messaging } from './messaging';
import { payments } from './payments';
import { system } from './system';
import { resources } from './resources';
import { subscriptions } from './subscriptions';
import { tickets } from './tickets';
import { traffic } from './traffic';
import { users } from './users';
import { vouchers } from './vouchers';

/** The texts of the portal's screens (every page but the dashboard), added when the first one opens. */
export const screens: Dictionary = {
  ...apiTokens,
  ...audit,
  ...autopay,
  ...backups,
  ...bulkMessages,
  ...credit,
  ...deviceBackups,
  ...devices,
  ...installations,
  ...ipam,
  ...invoices,
  ...jobs,
  ...messaging,
  ...payments,
  ...resources,
  ...subscriptions,
  ...system,
  ...tickets,
  ...traffic,
  ...users,
  ...vouchers,
};
