// Set-up file of the "in-process" test group (vitest.config.ts), whose files run
// two at a time: they compute in their own process and are not timed by the
// network or by other processes. Starting a child process or listening on a
// socket here throws, so a file that does either fails until it is renamed
// *.serial.test.ts and runs alone (docs/development.md, "Tests").
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

function refuse(what: string): never {
  throw new Error(
    `${what} in a test of the in-process group, which runs two files at a time: ` +
      'a test file that starts processes or listens on sockets is named *.serial.test.ts ' +
      'and runs alone (docs/development.md, "Tests")',
  );
}

const spawning = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
for (const name of spawning) {
  Object.defineProperty(childProcess, name, {
    value: () => refuse(`child_process.${name}`),
    configurable: true,
    writable: true,
  });
}
// Every server (net, http, http2, tls, gRPC) listens through net.Server.
net.Server.prototype.listen = function listen(): never {
  return refuse('net.Server.listen');
};
// Named imports of node:child_process see the replacements too.
syncBuiltinESMExports();
