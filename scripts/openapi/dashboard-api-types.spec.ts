import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DASHBOARD_API_TYPES_FILE, dashboardApiTypes, PUBLIC_API_DOCUMENT_FILE } from './write-dashboard-api-types';

describe(`the dashboard's API types (${DASHBOARD_API_TYPES_FILE})`, () => {
  it(`are the ones openapi-typescript generates from ${PUBLIC_API_DOCUMENT_FILE} (run \`npm run openapi:dashboard\` after changing it)`, async () => {
    const committed = readFileSync(path.resolve(__dirname, '../..', DASHBOARD_API_TYPES_FILE), 'utf8');
    expect(committed).toBe(await dashboardApiTypes());
  });
});
