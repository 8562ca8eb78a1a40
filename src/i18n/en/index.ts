import type { Dictionary } from '../index';
import { app } from './app';
import { errors } from './errors';
import { site } from './site';

/**
 * The texts every page may show (splash, loading screen, the public site, request errors). They load with the
 * first page, the public site included; the back office's texts come with its code (./back-office.ts).
 */
export const en: Dictionary = { ...app, ...errors, ...site };
