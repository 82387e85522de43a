import { defineConfig } from '@umijs/max';

// The console. Routes beyond the public ones come from the server's resource tree at run time.
export default defineConfig({
  title: '车管星',
  npmClient: 'npm',
  antd: {},
  model: {},
  initialState: {},
  request: {},
  locale: {
    default: 'zh-CN',
    // Root gives antd its words (shell/antdLocales.ts): the plugin's provider would bring antd into
    // the entry script, which the login page needs before any of it.
    antd: false,
    baseNavigator: true,
    baseSeparator: '-',
  },
  // Without it the locale plugin bundles moment and three of its locales for nothing: antd 5 and
  // pro-components format dates with dayjs. `moment` then resolves to dayjs and the plugin switches
  // dayjs's locale with the language; no dayjs plugin beyond antd's own is needed.
  moment2dayjs: { preset: 'none' },
  hash: true,
  // Umi's default polyfill is the whole of core-js, proposals included (100 KB of the entry script,
  // gzipped); the standard features the targets lack are all the code may use.
  polyfill: { imports: ['core-js/stable'] },
  // Browser tests build into a temp dir so a run never clobbers dist/.
  outputPath: process.env.CONSOLE_OUTPUT || 'dist',
  history: { type: 'browser' },
  publicPath: '/',
  favicons: ['/favicon.svg'],
  mfsu: false,
  codeSplitting: { jsStrategy: 'granularChunks' },
  // esbuild's minifier hoists its helpers to each chunk's top level, where two chunks' helpers of the
  // same short name overwrite each other; one IIFE per chunk keeps them apart.
  esbuildMinifyIIFE: true,
  // `npm run dev:mock`: mock/api.generated.ts answers every /api call; its runtime is not a mock file.
  mock: { exclude: ['mock/runtime/**'] },
  proxy: {
    '/api': { target: process.env.API_URL || 'http://127.0.0.1:8000', changeOrigin: true },
  },
  // API base used on localhost / 192.168.x (SPEC.md §7); the dev server proxies /api.
  define: { 'process.env.API_BASE_DEV': process.env.API_BASE_DEV || '/api' },
  // Root is the route guard (SPEC.md §2); every menu route is resolved by the shell at run time.
  routes: [
    {
      path: '/',
      component: '@/shell/Root',
      routes: [
        { path: '/login', component: 'login' },
        { path: '/login/:userName/:password', component: 'login/credentials' },
        { path: '/password/weak', component: 'password/weak' },
        // Public: a shared vehicle's location, by ticket (SPEC.md §2).
        { path: '/location/:ticket', component: 'location/ticket' },
        { path: '/404', component: '404' },
        // `/` is not matched by the splat below in Umi's route tree: the shell takes it explicitly.
        { path: '/', component: '@/shell/Shell' },
        { path: '/*', component: '@/shell/Shell' },
      ],
    },
  ],
});
