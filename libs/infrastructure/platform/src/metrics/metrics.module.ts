import { Controller, Get, Global, Header, Inject, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { registerDefaultMetrics } from './default-metrics';

/** The app's Prometheus registry; components register their metrics on it. */
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');

@Controller('metrics')
// For Prometheus, not API clients: every app serves it alike (docs/operations.md); the API documents leave it out.
@ApiExcludeController()
class MetricsController {
  constructor(@Inject(METRICS_REGISTRY) private readonly registry: Registry) {}

  @Get()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}

/** `GET /metrics` in Prometheus text format: process metrics plus what the app registers. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    {
      provide: METRICS_REGISTRY,
      useFactory: () => {
        const registry = new Registry();
        registerDefaultMetrics(registry);
        return registry;
      },
    },
  ],
  exports: [METRICS_REGISTRY],
})
export class MetricsModule {}
