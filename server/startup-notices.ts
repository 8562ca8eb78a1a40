/**
 * What an operator must hear when the portal starts: secrets that were generated into the data folder in
 * production (right for one server, wrong for several, and lost with the folder), and an install that has no
 * administrator yet (production gets no demo accounts).
 */
import type { Config } from './config';

export function startupNotices(
  config: Pick<Config, 'isProduction' | 'generatedSecrets' | 'dataDir'>,
  administrators: number,
): string[] {
  const notices: string[] = [];
  if (config.isProduction && config.generatedSecrets.length) {
    notices.push(
      [
        `WARNING: ${config.generatedSecrets.join(', ')} ${config.generatedSecrets.length === 1 ? 'is' : 'are'} not set; using the value${config.generatedSecrets.length === 1 ? '' : 's'} generated in ${config.dataDir}/secrets.json.`,
        '  That is fine for one server, wrong for several (each would sign and seal with its own keys), and losing',
        '  that file signs everybody out and, for SECRETS_KEY, makes every stored credential (SMTP, gateways, devices)',
        '  unreadable. Set them in the environment (each at least 32 random characters) and keep a copy somewhere safe.',
      ].join('\n'),
    );
  }
  if (administrators === 0) {
    notices.push(
      [
        'No administrator exists yet. Create the first one (it becomes super_admin):',
        '  npm run admin:create -- --email you@example.com --name "Your Name"',
      ].join('\n'),
    );
  }
  return notices;
}
