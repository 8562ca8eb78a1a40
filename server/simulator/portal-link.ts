/**
 * What the simulated NAS asks of the portal, over the portal's own HTTP API as an administrator (the same
 * calls the back office makes): its device record (created or updated, with the SNMP port and community and
 * the RADIUS shared secret of this run) and the PPPoE logins of the active subscriptions
 * (GET /api/subscriptions?status=active, then GET /api/subscriptions/{id}/credentials for each).
 * Authentication is a bearer from `auth()`; on a 401 it is asked for a new one once.
 */
export interface SimulatedDeviceSpec {
  name: string;
  model: string;
  host: string;
  location: string;
  snmpPort: number;
  snmpCommunity: string;
  radiusSecret: string;
}

export interface SimulatedLogin {
  subscriptionId: string;
  username: string;
  password: string;
}

export class PortalApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'PortalApiError';
  }
}

export class PortalLink {
  private token: string | null = null;

  constructor(
    private readonly options: {
      /** The portal's address, e.g. http://127.0.0.1:3000. */
      url: string;
      /** A bearer for an administrator: an access token or an API token (isp_…). */
      auth: () => Promise<string>;
      timeoutMs?: number;
    },
  ) {}

  /** Finds the device by its exact name and updates it, or creates it. Returns its id. */
  async ensureDevice(spec: SimulatedDeviceSpec): Promise<string> {
    const body = {
      name: spec.name,
      vendor: 'mikrotik',
      model: spec.model,
      host: spec.host,
      location: spec.location,
      notes: "Simulated by the portal's network simulator (npm run simulate or SIMULATE=true): not a real router.",
      tags: ['simulated'],
      snmp_version: 'v2c',
      snmp_port: spec.snmpPort,
      snmp_community: spec.snmpCommunity,
      radius_secret: spec.radiusSecret,
    };
    const page = await this.call<{ items: Array<{ id: string; name: string }> }>(
      'GET',
      `/devices?search=${encodeURIComponent(spec.name)}&limit=100`,
    );
    const existing = page.items.find((d) => d.name === spec.name);
    if (existing) {
      await this.call('PUT', `/devices/${existing.id}`, body);
      return existing.id;
    }
    return (await this.call<{ id: string }>('POST', '/devices', { ...body, api_tls: false })).id;
  }

  /** The PPPoE logins of every active subscription that has one. */
  async activeLogins(): Promise<SimulatedLogin[]> {
    const ids: string[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.call<{ items: Array<{ id: string }>; pagination: { hasNext: boolean } }>(
        'GET',
        `/subscriptions?status=active&limit=100&page=${page}`,
      );
      ids.push(...answer.items.map((s) => s.id));
      if (!answer.pagination.hasNext) break;
    }
    const logins: SimulatedLogin[] = [];
    // A few at a time: the simulator is one API client among others, under the portal's per-address limit.
    for (let i = 0; i < ids.length; i += 4) {
      const answers = await Promise.all(
        ids
          .slice(i, i + 4)
          .map((id) =>
            this.call<{ credentials: { username: string; password: string | null } | null }>(
              'GET',
              `/subscriptions/${id}/credentials`,
            ),
          ),
      );
      answers.forEach((a, k) => {
        if (a.credentials?.password)
          logins.push({
            subscriptionId: ids[i + k],
            username: a.credentials.username,
            password: a.credentials.password,
          });
      });
    }
    return logins;
  }

  private async call<T>(method: string, path: string, body?: unknown, retried = false): Promise<T> {
    this.token ??= await this.options.auth();
    const response = await fetch(`${this.options.url.replace(/\/$/, '')}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
    });
    if (response.status === 401 && !retried) {
      this.token = null;
      return this.call(method, path, body, true);
    }
    const text = await response.text();
    let parsed: { success?: boolean; message?: string; data?: unknown } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // not JSON: reported below with the status
    }
    if (!response.ok)
      throw new PortalApiError(
        `${method} /api${path}: ${response.status} ${parsed.message ?? text.slice(0, 200)}`,
        response.status,
      );
    return parsed.data as T;
  }
}

/** A bearer from an administrator's e-mail and password (POST /api/auth/login). */
export function passwordAuth(url: string, email: string, password: string): () => Promise<string> {
  return async () => {
    const response = await fetch(`${url.replace(/\/$/, '')}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, rememberMe: false }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json().catch(() => ({}))) as {
      message?: string;
      data?: { tokens?: { access?: { token?: string } } };
    };
    const token = body.data?.tokens?.access?.token;
    if (!response.ok || !token)
      throw new PortalApiError(
        `Sign-in as ${email} failed: ${response.status} ${body.message ?? ''}`.trim(),
        response.status,
      );
    return token;
  };
}
