it('loads', () => {
  const before = new Set(Object.keys(require('module')._cache));
  const t0 = Date.now();
  require('@bpc/composition');
  require('@bpc/testing');
  console.log(`LOAD ${Date.now() - t0} ms`);
});
