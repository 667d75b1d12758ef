import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '@bpc/config';
import { validationError } from '@bpc/domain';
import { DemoDataWritten, GenerateDemoData, ImportSearchPerformance, SearchPerformanceImported } from '@bpc/explorer';
import { ApiTokenListing, IssueApiToken, IssueDashboardSignInLink, IssuedApiToken, IssuedDashboardSignInLink, ListApiTokens, RevokeApiToken } from '@bpc/identity';
import { APP_CONFIG, BodyPipe } from '@bpc/platform';
import { AdminImportSearchPerformanceDto } from '../search-performance/import-search-performance.dto';
import { InternalAuthGuard } from '../auth/internal-auth.guard';
import { OperatorSqlConsole } from '../run-operator-sql/operator-sql-console';
import { RunOperatorSqlDto } from '../run-operator-sql/run-operator-sql.dto';
import { PublicApiBaseUrl } from '../dashboard-session/public-api-base-url';
import { DemoDataDto, IssueDashboardLinkDto, IssueTokenDto } from './admin.dto';

/**
 * Operator endpoints behind `X-Internal-Auth`, used by `npm run cli`: the CLI
 * talks to the running service because the standalone event log is locked by
 * it. Not part of the public contract.
 */
@Controller('internal/admin')
@ApiExcludeController()
@UseGuards(InternalAuthGuard)
export class AdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sqlConsole: OperatorSqlConsole,
    private readonly baseUrl: PublicApiBaseUrl,
  ) {}

  @Post('tokens')
  @HttpCode(201)
  issue(@Body(new BodyPipe(IssueTokenDto, { forbidUnknownKeys: true })) body: IssueTokenDto): Promise<IssuedApiToken> {
    return this.commands.execute(new IssueApiToken({ userId: body.user, websiteId: body.website, role: body.role, label: body.label, expiresAt: body.expires }));
  }

  @Get('tokens')
  async list(): Promise<{ tokens: ApiTokenListing[] }> {
    return { tokens: await this.queries.execute(new ListApiTokens()) };
  }

  @Delete('tokens/:tokenId')
  revoke(@Param('tokenId') tokenId: string): Promise<{ tokenId: string; revoked: true }> {
    return this.commands.execute(new RevokeApiToken(tokenId));
  }

  /** A one-time dashboard sign-in link (`npm run cli -- dashboard link`); the secret travels in the fragment, which browsers never send to a server. */
  @Post('dashboard-links')
  @HttpCode(201)
  async dashboardLink(@Body(new BodyPipe(IssueDashboardLinkDto, { forbidUnknownKeys: true })) body: IssueDashboardLinkDto): Promise<{ url: string; expiresAt: string }> {
    const issued: IssuedDashboardSignInLink = await this.commands.execute(new IssueDashboardSignInLink(body.user));
    return { url: `${this.baseUrl.url()}/sign-in#link=${issued.secret}`, expiresAt: issued.expiresAt };
  }

  @Post('demo-data')
  @HttpCode(200)
  demoData(@Body(new BodyPipe(DemoDataDto, { forbidUnknownKeys: true })) body: DemoDataDto): Promise<DemoDataWritten> {
    return this.commands.execute(
      new GenerateDemoData({ websiteId: body.website ?? 'demo', days: body.days ?? 120, requestsPerDay: body.requestsPerDay ?? 1500, seed: body.seed ?? 42 }),
    );
  }

  @Post('search-performance/import')
  @HttpCode(200)
  importSearch(@Body(new BodyPipe(AdminImportSearchPerformanceDto, { forbidUnknownKeys: true })) body: AdminImportSearchPerformanceDto): Promise<SearchPerformanceImported> {
    const { website, ...rest } = body;
    if (!this.config.websites.some((w) => w.id === website)) throw validationError('website', `unknown website ${website}`);
    return this.commands.execute(new ImportSearchPerformance({ websiteId: website, ...rest, source: 'cli' }));
  }

  /** One read-only statement (`npm run cli -- sql`): JSON rows, or the engine's CSV. */
  @Post('sql')
  @HttpCode(200)
  async sql(@Body(new BodyPipe(RunOperatorSqlDto, { forbidUnknownKeys: true })) body: RunOperatorSqlDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    if (body.format !== 'csv') return this.sqlConsole.rows(body.sql);
    const csv = await this.sqlConsole.csv(body.sql);
    reply.header('content-type', 'text/csv; charset=utf-8');
    return csv;
  }
}
