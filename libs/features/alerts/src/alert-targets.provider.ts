import type { Provider } from '@nestjs/common';
import { AppConfig, processEnvironment } from '@bpc/config';
import { APP_CONFIG } from '@bpc/platform';
import { alertTargets } from './alert-targets';

export type { AlertTarget } from './alert-targets';

/** The websites' alert webhooks, secrets read from the environment once (checked at startup by checkAlertTargets). */
export const ALERT_TARGETS = Symbol('ALERT_TARGETS');

export const alertTargetsProvider: Provider = {
  provide: ALERT_TARGETS,
  useFactory: (config: AppConfig) => alertTargets(config, processEnvironment()),
  inject: [APP_CONFIG],
};
