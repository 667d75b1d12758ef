/** Signs a dashboard session out for good. */
export class EndDashboardSession {
  constructor(readonly sessionId: string) {}
}
