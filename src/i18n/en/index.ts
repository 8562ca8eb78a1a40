import type { Dictionary } from '../index';
import { app } from './app';
import { errors } from './errors';

/**
 * The texts every page may show (splash, loading screen, request errors). They load with the first page; the
 * public site's texts come with its code (../site.ts), the back office's with the portal's (../portal.ts).
 */
export const en: Dictionary = { ...app, ...errors };
