// `npm start`: builds the web app when its sources changed (scripts/ensure-build.mjs), then runs the server in
// this same process (TypeScript through tsx's loader, registered here). One process under npm, with no shell
// or tsx launcher in between: the SIGTERM or SIGINT npm passes on reaches the server itself, which drains and exits
// (a shell between them used to die on the signal and leave the server running, holding the port).
import { spawnSync } from 'node:child_process';
import { register } from 'tsx/esm/api';

const root = new URL('..', import.meta.url);
const build = spawnSync(process.execPath, [new URL('scripts/ensure-build.mjs', root).pathname], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

register();
const { main } = await import(new URL('server/server.ts', root).href);
await main();
