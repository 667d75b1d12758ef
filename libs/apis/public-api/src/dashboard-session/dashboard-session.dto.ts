import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { validationError } from '@bpc/domain';
import { ROLES } from '@bpc/events';
import { linkIdOf, tokenIdOf } from '@bpc/identity';
import { Omittable } from '@bpc/platform';

/** Body of POST /api/session: exactly one of `token` or `link`. */
export class SignInDto {
  @ApiPropertyOptional({ description: 'An API token (`bpc_tok_…`), exchanged for a session; the browser never keeps it', example: 'bpc_tok_0123456789abcdef_…' })
  @Omittable() @IsString({ message: 'token must be a string' }) @MaxLength(200, { message: 'token must be at most 200 characters' }) token?: string;

  @ApiPropertyOptional({ description: 'The secret of a one-time sign-in link (the `#link=` part of `npm run cli -- dashboard link`)', example: 'bpc_lnk_0123456789abcdef_…' })
  @Omittable() @IsString({ message: 'link must be a string' }) @MaxLength(200, { message: 'link must be at most 200 characters' }) link?: string;
}

/**
 * The one credential a valid sign-in body holds; VALIDATION_FAILED naming the
 * field otherwise, also for a value not shaped like a token or a link secret
 * (refused before any lookup or hashing).
 */
export function signInCredentialOf(body: SignInDto): { token: string } | { link: string } {
  if (body.token !== undefined && body.link !== undefined) throw validationError('link', 'give either token or link, not both');
  if (body.token !== undefined) {
    if (tokenIdOf(body.token) === undefined) throw validationError('token', 'token must be an API token (bpc_tok_…)');
    return { token: body.token };
  }
  if (body.link !== undefined) {
    if (linkIdOf(body.link) === undefined) throw validationError('link', 'link must be the secret of a sign-in link (bpc_lnk_…, the part after #link=)');
    return { link: body.link };
  }
  throw validationError('token', 'token or link is required');
}

export class WebsiteViewDto {
  @ApiProperty({ example: 'demo' }) id!: string;
  @ApiProperty({ enum: ROLES, description: "The user's role on the website" }) role!: string;
  @ApiProperty({ description: 'Whether the Data Explorer (platform module) is enabled' }) platformModule!: boolean;
  @ApiProperty({ type: [String], description: "The hostnames of the website's host", example: ['www.example.com'] }) hostnames!: string[];
  @ApiProperty({ description: "Where the website's middleware points: the edge, from configuration", example: 'http://127.0.0.1:3002' }) edgeUrl!: string;
}

export class WebsitesDto {
  @ApiProperty({ type: [WebsiteViewDto], description: 'Every website the caller has a role on, by id' }) websites!: WebsiteViewDto[];
}

export class SessionViewDto {
  @ApiProperty({ example: 'alice' }) userId!: string;
  @ApiProperty({ enum: ['token', 'link'], description: 'How the session was opened' }) via!: 'token' | 'link';
  @ApiProperty({ format: 'date-time', description: 'When the session ends at the latest' }) expiresAt!: string;
  @ApiProperty({ description: 'To send as `X-CSRF-Token` on every request signed in by the cookie that is not GET/HEAD', example: 'a3f1…' }) csrfToken!: string;
  @ApiProperty({ type: [WebsiteViewDto] }) websites!: WebsiteViewDto[];
}
