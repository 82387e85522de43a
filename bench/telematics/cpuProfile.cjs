/**
 * CPU profile of the cluster's gateway workers in the steady state (node refuses --cpu-prof in
 * NODE_OPTIONS, and the workers are forked by the server, not by the bench). Preloaded with
 *   NODE_OPTIONS="--require ./bench/telematics/cpuProfile.cjs" BENCH_PROFILE_DIR=/tmp/prof ...
 * each cluster worker starts profiling its main thread on SIGUSR2 and on the next SIGUSR2 writes
 * <dir>/worker-<pid>.cpuprofile (Chrome DevTools opens it; bench/telematics/profileSummary.ts
 * summarises it). See docs/benchmarks.md, "Profiling the ingest". Other processes are left alone.
 */
const cluster = require('node:cluster');
const dir = process.env.BENCH_PROFILE_DIR;
if (dir && cluster.isWorker) {
  const fs = require('node:fs');
  const path = require('node:path');
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  let running = false;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () => session.post('Profiler.start'));
      return;
    }
    running = false;
    session.post('Profiler.stop', (err, result) => {
      if (err) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `worker-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
