/**
 * The hotspot pages outside /api (issue 22), served by the portal next to the web app:
 *   GET|POST /hotspot/login          the themed login page (page.ts); 400 when not opened by a hotspot, 403 (a
 *                                    message, no form) for a hotspot no device is registered with
 *   GET /hotspot/login.js            its script (login.js beside this file)
 *   GET /hotspot/md5.min.js          js-md5's browser build, for the HTTP-CHAP password
 *   GET /hotspot/mikrotik-login.html the login.html to upload to the router, pointing at this portal
 * The login page has its own Content-Security-Policy (hotspotPageCsp): its form posts to the router.
 */
import { acceptedLanguages, pickLanguage } from '../../../contract/languages';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { projectPath } from '../../lib/paths';
import { returnOrigin } from '../../lib/return-origin';
import { createDeviceRepository } from '../devices/repository';
import {
  HOTSPOT_PAGE_MESSAGES,
  hotspotPageCsp,
  mikrotikLoginHtml,
  readHotspotParams,
  renderHotspotLogin,
  renderHotspotProblem,
} from './page';

export const HOTSPOT_LOGIN_PATH = '/hotspot/login';

const hotspotRoutes: FastifyPluginAsync = async (app) => {
  const loginScript = readFileSync(projectPath('server/modules/hotspot/login.js'), 'utf8');
  const md5Script = readFileSync(createRequire(import.meta.url).resolve('js-md5/build/md5.min.js'), 'utf8');

  // A router's login.html may post its variables instead of sending them in the address.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  /** Whether a device is registered with a hotspot URL of this origin (the only place a code may be posted to). */
  const registeredHotspot = async (router: URL): Promise<boolean> => {
    const urls = await createDeviceRepository(app.db).hotspotUrls();
    return urls.some((url) => URL.canParse(url) && new URL(url).origin === router.origin);
  };

  const page = async (input: Record<string, unknown>, reply: FastifyReply, request: FastifyRequest) => {
    const settings = await app.settings.publicSettings();
    // The phone's language among the ISP's offered ones (issue 37): the page is all it sees before it is online.
    const language = pickLanguage(
      acceptedLanguages(request.headers['accept-language']),
      settings.languages.offered,
      settings.languages.default,
    );
    const read = readHotspotParams(input);
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    if ('error' in read)
      return reply
        .code(400)
        .header('content-security-policy', hotspotPageCsp(null))
        .send(renderHotspotProblem(settings, read.error, language));
    // A link-login-only that is no registered NAS's hotspot: someone's page (or a hotspot not added under
    // Devices yet) would receive the customer's voucher code. No form, and a line in the log for staff.
    if (!(await registeredHotspot(read.router))) {
      request.log.warn(
        { origin: read.router.origin },
        'hotspot login page opened for a hotspot no device is registered with (Devices → Hotspot login URL)',
      );
      return reply
        .code(403)
        .header('content-security-policy', hotspotPageCsp(null))
        .send(renderHotspotProblem(settings, HOTSPOT_PAGE_MESSAGES.unknownRouter, language));
    }
    return reply
      .header('content-security-policy', hotspotPageCsp(read.router))
      .send(renderHotspotLogin(settings, read.params, language));
  };
  app.get(HOTSPOT_LOGIN_PATH, async (request, reply) => page(request.query as Record<string, unknown>, reply, request));
  app.post(HOTSPOT_LOGIN_PATH, async (request: FastifyRequest, reply) =>
    page({ ...(request.query as object), ...((request.body as object | null) ?? {}) }, reply, request),
  );

  const script = (source: string) => async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.header('cache-control', 'public, max-age=3600').type('text/javascript; charset=utf-8').send(source);
  app.get('/hotspot/login.js', script(loginScript));
  app.get('/hotspot/md5.min.js', script(md5Script));

  app.get('/hotspot/mikrotik-login.html', async (request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .header('content-disposition', 'attachment; filename="login.html"')
      .type('text/html; charset=utf-8')
      .send(mikrotikLoginHtml(returnOrigin(request, app.config))),
  );
};

export default hotspotRoutes;
