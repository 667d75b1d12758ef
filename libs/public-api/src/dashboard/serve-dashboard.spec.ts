import { dashboardDist, isDashboardPage, RESERVED_PREFIXES } from './serve-dashboard';

describe('isDashboardPage', () => {
  const reserved = [...RESERVED_PREFIXES, '/exports/download'];
  it.each(['/', '/sign-in', '/w/demo', '/w/example.com', '/w/demo/explorer', '/no-websites'])('%s is a page of the dashboard', (path) => {
    expect(isDashboardPage(path, reserved)).toBe(true);
  });
  it.each(['/api', '/api/websites', '/internal/x', '/docs', '/docs/openapi.json', '/health/ready', '/metrics', '/exports/download/3', '/assets/gone.js', '/favicon.ico'])(
    '%s is not',
    (path) => {
      expect(isDashboardPage(path, reserved)).toBe(false);
    },
  );
  it('keeps a look-alike prefix as a page', () => {
    expect(isDashboardPage('/apis', reserved)).toBe(true);
  });
});

describe('dashboardDist', () => {
  it('finds <repo>/dist/dashboard from the compiled module and from its source', () => {
    expect(dashboardDist('/r/dist/libs/public-api/src/dashboard')).toBe('/r/dist/dashboard');
    expect(dashboardDist('/r/libs/public-api/src/dashboard')).toBe('/r/dist/dashboard');
  });
});
