import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * Session start (public-area-and-api.md §4 "Session start"): a browser with a stored session fetches the dashboard's
 * chunks while the entry script is still loading, instead of after it has run (app/router.tsx startSession then
 * finds them in hand). index.html gets a small async script that, only when a session is stored (the keys of
 * src/common/constants.ts STORAGE_KEYS), adds modulepreload links for the dashboard chunk and the chunks it imports,
 * and a preload for its stylesheets. An external file, since the content security policy allows 'self' scripts only.
 * Visitors without a session load nothing more.
 */
function dashboardPreload(): Plugin {
  return {
    name: 'feeder-dashboard-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const dashboard = chunks.find((c) => c.facadeModuleId?.endsWith('/src/web/features/dashboard/index.ts'));
      const entry = chunks.find((c) => c.isEntry);
      if (!html || html.type !== 'asset' || !dashboard || !entry) return;
      const loaded = new Set([entry.fileName, ...entry.imports]);
      const scripts = new Set<string>();
      const styles = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = bundle[fileName];
        if (!chunk || chunk.type !== 'chunk' || loaded.has(fileName) || scripts.has(fileName)) return;
        scripts.add(fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) styles.add(css);
        chunk.imports.forEach(visit);
      };
      visit(dashboard.fileName);
      const links = [...[...scripts].map((f) => ['modulepreload', f, '']), ...[...styles].map((f) => ['preload', f, 'style'])];
      const source = `(function(){try{var s=localStorage;if(!s.getItem('token')||!s.getItem('refresh_token')||!s.getItem('user'))return;${JSON.stringify(links)}.forEach(function(l){var e=document.createElement('link');e.rel=l[0];e.href='/'+l[1];if(l[2])e.as=l[2];document.head.appendChild(e)})}catch(e){}})();\n`;
      const ref = this.emitFile({ type: 'asset', name: 'session-start.js', source });
      const tag = `<script async src="/${this.getFileName(ref)}"></script>`;
      html.source = String(html.source).replace('</head>', `  ${tag}\n  </head>`);
    },
  };
}

const apiTarget = `http://localhost:${process.env.API_PORT ?? 3000}`;

export default defineConfig({
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  publicDir: fileURLToPath(new URL('./src/web/public', import.meta.url)),
  plugins: [react(), tailwindcss(), dashboardPreload()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    port: 5173,
    proxy: { '/api': apiTarget, '/auth': apiTarget, '/public-api': apiTarget, '/healthz': apiTarget },
  },
});
