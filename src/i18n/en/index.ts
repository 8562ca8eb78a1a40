import type { Dictionary } from '../index';
import { apiTokens } from './api-tokens';
import { app } from './app';
import { auth } from './auth';
import { backups } from './backups';
import { dashboard } from './dashboard';
import { devices } from './devices';
import { deviceBackups } from './device-backups';
import { errors } from './errors';
import { installations } from './installations';
import { invoices } from './invoices';
import { resources } from './resources';
import { site } from './site';
import { subscriptions } from './subscriptions';
import { tickets } from './tickets';
import { traffic } from './traffic';
import { users } from './users';

export const en: Dictionary = { ...apiTokens, ...app, ...auth, ...backups, ...dashboard, ...deviceBackups, ...devices, ...errors, ...installations, ...invoices, ...resources, ...site, ...subscriptions, ...tickets, ...traffic, ...users };
