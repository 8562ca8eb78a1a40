import type { Dictionary } from '../index';
import { app } from './app';
import { auth } from './auth';
import { errors } from './errors';
import { resources } from './resources';
import { site } from './site';

export const en: Dictionary = { ...app, ...auth, ...errors, ...resources, ...site };
