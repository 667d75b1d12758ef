declare module 'prerender-node' {
  import type { RequestHandler } from 'express';

  /** The middleware, and the settings it reads (`set` returns it, to chain). */
  interface PrerenderMiddleware extends RequestHandler {
    set(name: 'prerenderServiceUrl' | 'prerenderToken' | 'protocol' | 'host', value: string | undefined): PrerenderMiddleware;
    /** Adds User-Agent substrings to its bot list. */
    addUserAgents(agents: readonly string[]): void;
  }
  const prerender: PrerenderMiddleware;
  export default prerender;
}
