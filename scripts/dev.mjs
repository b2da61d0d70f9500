// `npm run dev`: the service (restarted on every change under src/) and the web apps from web/ with hot reload.
// Open the vite address it prints (http://127.0.0.1:5173/ and /admin/); the API is proxied to the service.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
// vite's package exports do not include its bin; find it beside its package.json.
const viteBin = path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js');
const children = [
  spawn(process.execPath, [require.resolve('tsx/cli'), 'watch', 'src/main.ts'], { stdio: 'inherit' }),
  spawn(process.execPath, [viteBin, '--config', 'web/vite.config.ts'], {
    stdio: 'inherit',
  }),
];
const stop = (signal) => {
  for (const child of children) child.kill(signal);
};
process.once('SIGINT', () => stop('SIGINT'));
process.once('SIGTERM', () => stop('SIGTERM'));
for (const child of children) {
  child.on('exit', (code) => {
    // One of them stopped (or failed to start): stop the other too, and exit with its status.
    stop('SIGTERM');
    process.exitCode = code ?? 1;
  });
}
