import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { PROCESS_SHUTDOWN, ProcessShutdown } from '../lifecycle/process-shutdown';
import { READINESS_CHECKS, ReadinessCheck, runCheck } from './readiness-check';
import { ReadinessRegistry } from './readiness-registry';
import { readinessReport, ReadinessReport, shuttingDownReport } from './readiness-report';

const CHECK_TIMEOUT_MS = 2000;

/**
 * Liveness answers while the process serves HTTP; readiness checks every
 * adapter the app uses and names the one that is down and why: 503 when a
 * critical one is down (or the process is shutting down), 200 listing it
 * under `degraded` when the app does its main job without it.
 */
@Controller('health')
// Probes, not API: every app serves them alike (docs/operations.md); the API documents leave them out.
@ApiExcludeController()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(READINESS_CHECKS) private readonly checks: readonly ReadinessCheck[],
    private readonly registry: ReadinessRegistry,
    @Inject(PROCESS_SHUTDOWN) private readonly shutdown: ProcessShutdown,
  ) {}

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([async () => this.indicators.check('process').up({ uptimeSeconds: Math.round(process.uptime()) })]);
  }

  @Get('ready')
  @HealthCheck()
  async ready(): Promise<ReadinessReport> {
    if (this.shutdown.started) throw new ServiceUnavailableException(shuttingDownReport());
    const checks = [...this.checks, ...this.registry.list()];
    const outcomes = await Promise.all(checks.map(async (c) => ({ name: c.name, critical: c.critical !== false, result: await runCheck(c, CHECK_TIMEOUT_MS) })));
    // Shutdown may have begun while the checks ran.
    if (this.shutdown.started) throw new ServiceUnavailableException(shuttingDownReport());
    const report = readinessReport(outcomes);
    if (report.status === 'error') throw new ServiceUnavailableException(report);
    return report;
  }
}
