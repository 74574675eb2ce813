// Preloaded into each server (NODE_OPTIONS=--import) by `--cpu-prof-dir DIR`, because Node
// refuses --cpu-prof in NODE_OPTIONS: profiles the process with the inspector and writes
// DIR/<pid>.cpuprofile when it exits (graceful stop; a SIGKILLed node writes nothing).
// SIGUSR2 writes a heap snapshot (DIR/<pid>-<n>.heapsnapshot) of the running node.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  // A missing directory would lose the profile silently at exit.
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  process.once('exit', () => {
    // A same-thread session answers synchronously, so this runs to completion inside 'exit'.
    session.post('Profiler.stop', (err, res) => {
      if (!err) writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
  let snapshots = 0;
  process.on('SIGUSR2', () => {
    writeHeapSnapshot(join(dir, `${process.pid}-${++snapshots}.heapsnapshot`));
  });
}
