import { Controller, Get, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { READINESS_CHECKS, ReadinessCheck, runCheck } from './readiness-check';
import { ReadinessRegistry } from './readiness-registry';

const CHECK_TIMEOUT_MS = 2000;

/**
 * Liveness answers while the process serves HTTP; readiness checks every
 * adapter the app uses and names the one that is down and why (503).
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(READINESS_CHECKS) private readonly checks: readonly ReadinessCheck[],
    private readonly registry: ReadinessRegistry,
  ) {}

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([async () => this.indicators.check('process').up({ uptimeSeconds: Math.round(process.uptime()) })]);
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([...this.checks, ...this.registry.list()].map((c) => () => this.indicate(c)));
  }

  private async indicate(check: ReadinessCheck): Promise<HealthIndicatorResult> {
    const result = await runCheck(check, CHECK_TIMEOUT_MS);
    const session = this.indicators.check(check.name);
    return result.ok ? session.up(result.details ?? {}) : session.down({ reason: result.reason });
  }
}
