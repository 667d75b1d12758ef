import { Module } from '@nestjs/common';
import { HealthModule } from '@bpc/platform';
import { alertTargetsProvider } from './alert-targets.provider';
import { AlertDeliverer } from './deliver-alerts/alert-deliverer';
import { AlertDeliveriesProjector } from './project-deliveries/alert-deliveries-projector';
import { AlertEvaluator } from './raise-alerts/alert-evaluator';
import { ExportAlertWatcher } from './raise-alerts/export-alert-watcher';

/**
 * Website alert webhooks, in the projector role (docs/alerts.md): rules
 * raise alerts as events on the alerts topic, one consumer group delivers
 * them, and the delivery log is projected into ClickHouse for the public API.
 */
@Module({
  imports: [HealthModule],
  providers: [alertTargetsProvider, AlertEvaluator, ExportAlertWatcher, AlertDeliverer, AlertDeliveriesProjector],
  exports: [AlertEvaluator, AlertDeliverer, AlertDeliveriesProjector],
})
export class AlertsModule {}
