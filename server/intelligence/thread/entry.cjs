// The derivation thread's entry. A worker thread starts from JavaScript and does not inherit the
// loader the server runs under (tsx, or none under jest), so it registers tsx itself.
require('tsx/cjs/api').register();
require('./worker.ts');
