import { listenUrl } from './openapi';

describe('listenUrl', () => {
  it.each([
    ['127.0.0.1', 3000, 'http://127.0.0.1:3000'],
    ['0.0.0.0', 3000, 'http://127.0.0.1:3000'],
    ['::', 3001, 'http://[::1]:3001'],
    ['::1', 3001, 'http://[::1]:3001'],
    ['api.internal', 80, 'http://api.internal:80'],
  ])('%s port %d is reached at %s', (host, port, url) => {
    expect(listenUrl(host, port)).toBe(url);
  });
});
