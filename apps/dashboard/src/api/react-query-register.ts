import type { ApiError } from './api-error';

// Every query and mutation fails with an ApiError (client.ts makes them all), so errors carry code, field and status.
declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
  }
}
