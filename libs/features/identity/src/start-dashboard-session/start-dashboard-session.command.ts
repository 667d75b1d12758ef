/** Exchanges an API token or a one-time sign-in link for a dashboard session (exactly one of the two is given). */
export class StartDashboardSession {
  constructor(readonly credential: { readonly token: string } | { readonly link: string }) {}
}

export interface StartedDashboardSession {
  readonly sessionId: string;
  /** The cookie's value: handed out once, only its hash is recorded. */
  readonly secret: string;
  readonly userId: string;
  readonly via: 'token' | 'link';
  /** Epoch ms. */
  readonly expiresAt: number;
}
