/**
 * The themed external login page of a MikroTik hotspot (issue 22), as plain server-rendered HTML: no SPA bundle,
 * so it loads fast on a phone that has no internet yet (only the walled garden).
 *
 * The router's own login.html is replaced by a tiny page (mikrotikLoginHtml below) that forwards MikroTik's
 * documented login.html variables to GET /hotspot/login:
 *   link-login-only  the router's login URL, where the form posts (required; an http(s) URL)
 *   link-orig / dst  the page the customer first asked for (posted on as `dst`, where the router sends them after)
 *   chap-id, chap-challenge  present when the hotspot profile allows HTTP-CHAP: octets written as octal escapes
 *                    ("\371\357..."); the password sent is then hex MD5(chap-id + code + chap-challenge)
 *   mac, ip          the customer's device (shown on nothing; kept for support), error (the router's message after
 *                    a failed login, e.g. the RADIUS Reply-Message: shown only as our text for a known message,
 *                    routerErrorText), username (the code typed last time)
 * The page posts only to a registered hotspot: the origin of `link-login-only` must be that of a device's
 * hotspot URL (routes.ts), else it shows why instead of the form.
 * Every value is HTML-escaped where it is written; the CHAP values travel in data- attributes to the page's
 * script (/hotspot/login.js), which computes the password with js-md5 (/hotspot/md5.min.js).
 */
import { directionOf, type LanguageCode } from '../../../contract/languages';
import type { PublicSettings } from '../../../contract/schemas/settings';
import { serverMessage } from '../../i18n';

export interface HotspotLoginParams {
  linkLoginOnly: string;
  dst: string;
  chapId: string;
  chapChallenge: string;
  mac: string;
  ip: string;
  error: string;
  username: string;
}

/** What the page asks of the router's values: lengths that no real one exceeds. */
const MAX_URL = 2048;
const MAX_VALUE = 512;
/** MikroTik writes CHAP octets as \ooo; a value with anything else in it did not come from a hotspot. */
const CHAP_VALUE = /^(\\[0-7]{1,3}|[\x20-\x5b\x5d-\x7e])*$/;

export const HOTSPOT_PAGE_MESSAGES = {
  title: 'Wi-Fi login',
  intro: 'Enter the code printed on your voucher to go online.',
  codeLabel: 'Voucher code',
  connect: 'Connect',
  codeHelp: 'Letters and digits; spaces and dashes are ignored.',
  help: 'Help:',
  noScript: 'This page needs JavaScript to sign you in.',
  badLink: 'This page is opened by the Wi-Fi hotspot: connect to the hotspot and open any web page to sign in.',
  badChap: 'The hotspot sent an incomplete login challenge: open any web page again to sign in.',
  unknownRouter:
    'This Wi-Fi hotspot is not one of ours, so this page will not send your voucher code to it. If you are at one of our hotspots, please tell us where.',
} as const;

/**
 * What the page says for the router's `error` (issue 32): only the messages a MikroTik hotspot itself writes (its
 * errors.txt, with the user name or details it fills in) and the portal's own RADIUS Reply-Messages are known,
 * each shown as our own text; any other text (anyone can put anything in the address) is not shown, only that the
 * login did not succeed.
 */
const ROUTER_ERROR_MESSAGES: Array<[RegExp, string]> = [
  // The portal's own Reply-Messages, which the router passes on (radius-reply).
  [
    /^Voucher code not accepted$/,
    'That code was not accepted. Check it and try again; a code whose time or data is used up no longer works.',
  ],
  [
    /^Login incorrect$/,
    'That code was not accepted. Check it and try again; a code whose time or data is used up no longer works.',
  ],
  [/^Service suspended: please pay your open invoice$/, 'This account is suspended until its open invoice is paid.'],
  // MikroTik's hotspot messages.
  [
    /^invalid username or password$/,
    'That code was not accepted. Check it and try again; a code whose time or data is used up no longer works.',
  ],
  [/^RADIUS server is not responding$/, 'The login service is not answering right now. Please try again in a minute.'],
  [/^no more sessions are allowed for user /, 'This code is already in use on another device.'],
  [/^user .* has reached uptime limit$/, 'The time on this code is used up.'],
  [/^user .* has reached traffic limit$/, 'The data on this code is used up.'],
  [
    /^user .* is not allowed to log in from this MAC address$|^invalid username \(.*\): this MAC address is not yours$/,
    'This code cannot be used on this device.',
  ],
  [
    /^web browser did not send challenge response/,
    'Your browser did not finish the login. Reload the page and try again.',
  ],
  [/^already authorizing, retry later$/, 'A login is already under way. Wait a moment and try again.'],
  [
    /^cannot assign ip address - no more free addresses from pool$/,
    'The hotspot is full right now. Please try again later.',
  ],
  [/^hotspot service is shutting down$/, 'The hotspot is restarting. Please try again in a minute.'],
  [
    /^(internal error|configuration error|session limit reached)( \(.*\))?$/,
    'The hotspot could not log you in. Please try again, or contact us if it keeps happening.',
  ],
  [/^you are not logged in$/, ''],
];
export const UNKNOWN_ROUTER_ERROR = 'The login did not succeed. Please try again.';

/** Our text for the router's error message; '' for none (or nothing worth showing). */
export function routerErrorText(error: string): string {
  const message = error.trim();
  if (!message) return '';
  for (const [pattern, text] of ROUTER_ERROR_MESSAGES) if (pattern.test(message)) return text;
  return UNKNOWN_ROUTER_ERROR;
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The first value of a query or form field (repeated fields give an array), '' when absent or too long. */
function field(input: Record<string, unknown>, name: string, max = MAX_VALUE): string {
  const raw = input[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === 'string' && value.length <= max ? value : '';
}

/** The router's login URL when it is an absolute http(s) URL without credentials in it, else null. */
export function routerLoginUrl(value: string): URL | null {
  if (!value || value.length > MAX_URL) return null;
  try {
    const url = new URL(value);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return null;
    return url;
  } catch {
    return null;
  }
}

/** The page's parameters from the query (or a posted form), or why the page cannot be shown (400). */
export function readHotspotParams(
  input: Record<string, unknown>,
): { params: HotspotLoginParams; router: URL } | { error: string } {
  const linkLoginOnly = field(input, 'link-login-only', MAX_URL);
  const router = routerLoginUrl(linkLoginOnly);
  if (!router) return { error: HOTSPOT_PAGE_MESSAGES.badLink };
  const chapId = field(input, 'chap-id');
  const chapChallenge = field(input, 'chap-challenge');
  if (Boolean(chapId) !== Boolean(chapChallenge) || !CHAP_VALUE.test(chapId) || !CHAP_VALUE.test(chapChallenge))
    return { error: HOTSPOT_PAGE_MESSAGES.badChap };
  const dst = field(input, 'dst', MAX_URL) || field(input, 'link-orig', MAX_URL);
  return {
    router,
    params: {
      linkLoginOnly: router.href,
      // Only a web address goes back to the router as the page to open after the login.
      dst: routerLoginUrl(dst) ? dst : '',
      chapId,
      chapChallenge,
      mac: field(input, 'mac', 64),
      ip: field(input, 'ip', 64),
      error: routerErrorText(field(input, 'error')),
      username: field(input, 'username', 64),
    },
  };
}

/**
 * The page's Content-Security-Policy: this page's script files only, inline styles, images from the portal (the
 * logo), and forms posted to the portal or to the router's own origin — the one address outside the portal this
 * page sends anything to. Per request, because every hotspot router has its own address. The router answers the
 * login POST with its alogin.html page (not an HTTP redirect), so no other origin is needed for the form.
 */
export function hotspotPageCsp(router: URL | null): string {
  const formAction = router ? `'self' ${router.origin}` : "'self'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    `form-action ${formAction}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The portal's colours (the theme of the web app, src/layout/theme.tsx), light and dark. */
const STYLE = `
:root { color-scheme: light dark; --primary: #0958d9; --primary-text: #ffffff; --bg: #f5f5f5; --card: #ffffff; --text: rgba(0,0,0,0.88);
  --muted: rgba(0,0,0,0.65); --border: #d9d9d9; --error: #cf1322; --error-bg: #fff1f0; --error-border: #ffa39e; }
@media (prefers-color-scheme: dark) {
  :root { --primary: #69b1ff; --primary-text: #000000; --bg: #000000; --card: #141414; --text: rgba(255,255,255,0.85);
    --muted: rgba(255,255,255,0.65); --border: #424242; --error: #ff7875; --error-bg: #2c1618; --error-border: #5b2526; }
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; background: var(--bg); color: var(--text); display: flex; align-items: center; justify-content: center;
  font: 16px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; padding: 16px; }
main { width: 100%; max-width: 400px; background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 24px; }
header { display: flex; align-items: center; gap: 12px; margin-bottom: 16px; }
header img { max-height: 48px; max-width: 120px; }
h1 { font-size: 20px; margin: 0; overflow-wrap: anywhere; }
p { margin: 0 0 16px; color: var(--muted); }
.error { color: var(--error); background: var(--error-bg); border: 1px solid var(--error-border); border-radius: 6px; padding: 8px 12px; overflow-wrap: anywhere; }
label { display: block; font-weight: 600; margin-bottom: 4px; }
input[type=text] { width: 100%; font: inherit; font-size: 20px; letter-spacing: 0.1em; text-transform: uppercase; padding: 8px 12px;
  border: 1px solid var(--border); border-radius: 6px; background: var(--card); color: var(--text); }
input[type=text]:focus { outline: 2px solid var(--primary); outline-offset: 1px; }
button { margin-top: 16px; width: 100%; font: inherit; font-weight: 600; padding: 10px 16px; border: 0; border-radius: 6px;
  background: var(--primary); color: var(--primary-text); cursor: pointer; }
button:focus-visible { outline: 2px solid var(--text); outline-offset: 2px; }
.small { font-size: 14px; margin: 16px 0 0; }
`;

/**
 * The page in the phone's language (issue 37: its Accept-Language among the ISP's offered languages, routes.ts):
 * each English text below is looked up as msg.<text> in the language's translation file. Also the frame of the
 * suspended customer's page (server/modules/suspended/page.ts), with its own styles added.
 */
export function layout(
  settings: PublicSettings,
  language: LanguageCode,
  title: string,
  body: string,
  extraStyle = '',
): string {
  const name = escapeHtml(settings.company.name);
  const logo = settings.company.logo_url ? `<img src="${escapeHtml(settings.company.logo_url)}" alt="">` : '';
  return `<!DOCTYPE html>
<html lang="${language}" dir="${directionOf(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${name}</title>
<style>${STYLE}${extraStyle}</style>
</head>
<body>
<main>
<header>${logo}<h1>${name}</h1></header>
${body}
</main>
</body>
</html>
`;
}

/** The login page: a voucher code field, the router's error if any, and the form that posts to the router. */
export function renderHotspotLogin(
  settings: PublicSettings,
  p: HotspotLoginParams,
  language: LanguageCode = 'en',
): string {
  const say = (text: string) => escapeHtml(serverMessage(language, text));
  const m = HOTSPOT_PAGE_MESSAGES;
  const error = p.error ? `<p class="error" role="alert">${say(p.error)}</p>` : '';
  const support = settings.company.support_phone || settings.company.support_email;
  return layout(
    settings,
    language,
    serverMessage(language, m.title),
    `<p>${say(m.intro)}</p>
${error}<form id="hotspot-login" method="post" action="${escapeHtml(p.linkLoginOnly)}" data-chap-id="${escapeHtml(p.chapId)}" data-chap-challenge="${escapeHtml(p.chapChallenge)}">
<label for="code">${say(m.codeLabel)}</label>
<input type="text" id="code" name="username" value="${escapeHtml(p.username)}" required autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="40" aria-describedby="code-help">
<input type="hidden" name="password" value="">
<input type="hidden" name="dst" value="${escapeHtml(p.dst)}">
<input type="hidden" name="popup" value="true">
<button type="submit">${say(m.connect)}</button>
</form>
<p class="small" id="code-help">${say(m.codeHelp)}${support ? ` ${say(m.help)} ${escapeHtml(support)}` : ''}</p>
<noscript><p class="error">${say(m.noScript)}</p></noscript>
<script src="/hotspot/md5.min.js"></script>
<script src="/hotspot/login.js"></script>`,
  );
}

/** The answer when the page was not opened by a hotspot (400). */
export function renderHotspotProblem(settings: PublicSettings, message: string, language: LanguageCode = 'en'): string {
  return layout(
    settings,
    language,
    serverMessage(language, HOTSPOT_PAGE_MESSAGES.title),
    `<p class="error" role="alert">${escapeHtml(serverMessage(language, message))}</p>`,
  );
}

/**
 * The router-side login.html: uploaded to the hotspot's html directory in place of MikroTik's own, it sends the
 * browser on to the portal's page with the login variables (MikroTik's `-esc` forms are URL-escaped by the router).
 */
export function mikrotikLoginHtml(portalOrigin: string): string {
  const target =
    `${portalOrigin}/hotspot/login?link-login-only=$(link-login-only-esc)&amp;dst=$(link-orig-esc)&amp;chap-id=$(chap-id-esc)` +
    `&amp;chap-challenge=$(chap-challenge-esc)&amp;mac=$(mac-esc)&amp;ip=$(ip-esc)&amp;error=$(error-esc)&amp;username=$(username-esc)`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="pragma" content="no-cache">
<meta http-equiv="expires" content="-1">
<meta http-equiv="refresh" content="0; url=${target}">
<title>Wi-Fi login</title>
</head>
<body>
<p><a href="${target}">Continue to the Wi-Fi login</a></p>
</body>
</html>
`;
}
