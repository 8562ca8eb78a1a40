/** Product-wide constants (spec §9). */
export const PRODUCT_NAME = 'ISP Portal';
export const API_BASE = '/api';
export const REQUEST_TIMEOUT_MS = 15_000;
export const TOKEN_EXPIRY_MARGIN_MS = 30_000;
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_COOKIE_NAME = 'refresh_token';
export const REFRESH_COOKIE_PATH = '/api/auth';
export const REMEMBER_ME_DAYS = 30;
export const PASSWORD_MIN_LENGTH = 8;
