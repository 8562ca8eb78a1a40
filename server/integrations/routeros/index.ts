/**
 * RouterOS for the rest of the server: a REST client built from a device's (opened) management API settings.
 */
import { createRouterOsClient, type RouterOsClient } from './client';

export * from './client';

/** What a device's management API settings provide (DeviceApiSettings from the devices module fits). */
export interface RouterOsDeviceApi {
  host: string;
  port: number;
  tls: boolean;
  username: string;
  password: string;
  /**
   * Verify the router's HTTPS certificate. Routers usually carry a self-signed one, so unless a device says
   * otherwise the certificate is not verified (the connection is still encrypted).
   */
  verifyTls?: boolean;
}

export function routerOsClientForDevice(api: RouterOsDeviceApi, options: { timeoutMs: number }): RouterOsClient {
  return createRouterOsClient({
    host: api.host,
    port: api.port,
    tls: api.tls,
    username: api.username,
    password: api.password,
    timeoutMs: options.timeoutMs,
    rejectUnauthorized: api.verifyTls ?? false,
  });
}
