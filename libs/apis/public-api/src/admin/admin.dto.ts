import { IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ROLES, Role } from '@bpc/events';

/** Body of POST /internal/admin/tokens. */
export class IssueTokenDto {
  @IsDefined({ message: 'user is required' }) @IsString() @Matches(/^[A-Za-z0-9._@-]{1,100}$/, { message: 'user must be 1-100 letters, digits, ., _, @ or -' }) user!: string;
  @IsDefined({ message: 'website is required' }) @IsString() @MaxLength(63) website!: string;
  @IsDefined({ message: 'role is required' }) @IsIn(ROLES, { message: `role must be one of ${ROLES.join(', ')}` }) role!: Role;
  @IsOptional() @IsString() @MaxLength(200) label?: string;
  /** ISO 8601 date or timestamp. */
  @IsOptional() @IsString() @MaxLength(40) expires?: string;
}

/** Body of POST /internal/admin/demo-data. */
export class DemoDataDto {
  @IsOptional() @IsString() @MaxLength(63) website?: string;
  @IsOptional() @IsInt() @Min(1) @Max(400) days?: number;
  @IsOptional() @IsInt() @Min(1) @Max(100_000) requestsPerDay?: number;
  @IsOptional() @IsInt() seed?: number;
}

/** Body of POST /internal/admin/dashboard-links. */
export class IssueDashboardLinkDto {
  @IsDefined({ message: 'user is required' }) @IsString() @Matches(/^[A-Za-z0-9._@-]{1,100}$/, { message: 'user must be 1-100 letters, digits, ., _, @ or -' }) user!: string;
}
