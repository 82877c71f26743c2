// `npm run dev`: the API server with reload (tsx watch) and Vite's dev server with hot module reload.
import { spawn } from 'node:child_process';

const procs = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/dev-entry.ts'], {
    stdio: 'inherit',
    // Links in mails point at Vite's server, where the app runs during development.
    env: { PUBLIC_URL: 'http://localhost:5173', ...process.env, PORT: process.env.API_PORT ?? '3000' },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit' }),
];
const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const p of procs)
  p.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
console.log('Feeder dev: open http://localhost:5173 (API on port ' + (process.env.API_PORT ?? '3000') + ')');
