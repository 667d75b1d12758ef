export * from './alerts.module';
export * from './alert-targets';
export { ALERT_TARGETS } from './alert-targets.provider';
export * from './deliver-alerts/alert-signature';
export * from './deliver-alerts/alert-deliverer';
export * from './deliver-alerts/webhook-client';
export * from './raise-alerts/alert-evaluator';
export * from './raise-alerts/export-alert-watcher';
export * from './project-deliveries/alert-deliveries-projector';
