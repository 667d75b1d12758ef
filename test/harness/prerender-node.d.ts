declare module 'prerender-node' {
  import type { RequestHandler } from 'express';

  /** The middleware, and the settings it reads (`set` returns it, to chain). */
  interface PrerenderMiddleware extends RequestHandler {
    set(name: 'prerenderServiceUrl' | 'prerenderToken' | 'protocol' | 'host', value: string | undefined): PrerenderMiddleware;
    /** `true`: the bot's request headers go to the service too (its `X-Forwarded-For`, its `Accept`). */
    set(name: 'forwardHeaders', value: boolean): PrerenderMiddleware;
    /** Adds User-Agent substrings to its bot list. */
    addUserAgents(agents: readonly string[]): void;
  }
  const prerender: PrerenderMiddleware;
  export default prerender;
}
