/** Discovery for one website (limits are per account). */
export class DiscoverExplorers {
  constructor(readonly accountId: string) {}
}
