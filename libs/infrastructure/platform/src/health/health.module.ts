import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { ReadinessRegistry } from './readiness-registry';

/** `/health/live` and `/health/ready`; the readiness checks come from the ports module. */
@Module({
  imports: [TerminusModule.forRoot({ logger: false, errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [ReadinessRegistry],
  exports: [ReadinessRegistry],
})
export class HealthModule {}
