/** Runs one of the operator commands (server/cli/<name>.ts) as `npm run …` would, without a terminal. */
import { spawn } from 'node:child_process';

const ROOT = new URL('../..', import.meta.url).pathname;

export interface CommandResult {
  code: number | null;
  out: string;
  err: string;
}

export function runCli(name: string, args: string[], env: Record<string, string>): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `server/cli/${name}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}
