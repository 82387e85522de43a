// Jest transformer for CommonJS files (.cjs) that load Node built-ins with `await import("x")`
// (PGlite does): jest's module sandbox cannot run import() without experimental flags, so the
// calls become require() through a reference taken at the top of the file (inner scopes of the
// file shadow `require`).
module.exports = {
  process(source) {
    const code = source.replace(/\bimport\((["'][\w:/.-]+["'])\)/g, 'Promise.resolve(__cjsRequire($1))');
    return { code: 'var __cjsRequire = require;' + code };
  },
  getCacheKey(source, file) {
    return require('crypto').createHash('md5').update('cjsDynamicImport-v1').update(file).update(source).digest('hex');
  },
};
