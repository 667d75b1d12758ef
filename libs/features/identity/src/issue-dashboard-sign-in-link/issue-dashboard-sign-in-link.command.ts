/** Issues a one-time dashboard sign-in link for a user who holds a role on some website. */
export class IssueDashboardSignInLink {
  constructor(readonly userId: string) {}
}

export interface IssuedDashboardSignInLink {
  readonly linkId: string;
  /** Shown once (in the link's `#link=` fragment): only its hash is recorded. */
  readonly secret: string;
  readonly userId: string;
  /** ISO timestamp. */
  readonly expiresAt: string;
}
