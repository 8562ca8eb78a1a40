// The import tests (issue 39) read phpnuxbill and daloRADIUS databases from a real MariaDB at 127.0.0.1:3306 (root,
// no password over TCP, as this kind of machine runs it). When nothing answers there, install Debian's mariadb-server
// and start it; if it still does not answer, say what to do.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';

const answers = () =>
  new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: 3306 });
    socket.setTimeout(1000);
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => resolve(false));
  });

if (await answers()) process.exit(0);

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = asRoot ? [] : ['sudo', '-n'];
const run = (args) =>
  spawnSync(args[0], args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
if (!existsSync('/usr/sbin/mariadbd')) {
  console.log("No MariaDB at 127.0.0.1:3306: installing Debian's mariadb-server for the import tests...");
  let r = run([...sudo, 'apt-get', 'install', '-y', '-qq', 'mariadb-server']);
  if (r.status !== 0) {
    r = run([...sudo, 'apt-get', 'update', '-qq']);
    if (r.status === 0) run([...sudo, 'apt-get', 'install', '-y', '-qq', 'mariadb-server']);
  }
}
run([...sudo, 'service', 'mariadb', 'start']);
for (let i = 0; i < 30 && !(await answers()); i++) await new Promise((r) => setTimeout(r, 1000));
if (!(await answers())) {
  console.error(
    'MariaDB does not answer at 127.0.0.1:3306. Start it (service mariadb start) so the import tests can run.',
  );
  process.exit(1);
}
// A fresh Debian install lets root in through the socket only: let it in over TCP from this machine, no password.
run([
  ...sudo,
  'mariadb',
  '-e',
  "ALTER USER 'root'@'localhost' IDENTIFIED VIA unix_socket OR mysql_native_password USING PASSWORD('')",
]);
