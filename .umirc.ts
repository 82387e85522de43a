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
    antd: true,
    baseNavigator: true,
    baseSeparator: '-',
  },
  hash: true,
  history: { type: 'browser' },
  publicPath: '/',
  favicons: ['/favicon.svg'],
  mfsu: false,
  codeSplitting: { jsStrategy: 'granularChunks' },
  // `npm run dev:mock`: mock/api.generated.ts answers every /api call; its runtime is not a mock file.
  mock: { exclude: ['mock/runtime/**'] },
  proxy: {
    '/api': { target: process.env.API_URL || 'http://127.0.0.1:8000', changeOrigin: true },
  },
  routes: [
    { path: '/login', component: 'login', layout: false },
    { path: '/', component: 'index' },
    { path: '*', component: '404', layout: false },
  ],
});
