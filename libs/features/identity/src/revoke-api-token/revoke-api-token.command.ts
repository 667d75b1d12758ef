export class RevokeApiToken {
  constructor(readonly tokenId: string) {}
}
