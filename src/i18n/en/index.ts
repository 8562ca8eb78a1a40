import type { Dictionary } from '../index';
import { app } from './app';
import { auth } from './auth';
import { errors } from './errors';
import { site } from './site';

export const en: Dictionary = { ...app, ...auth, ...errors, ...site };
