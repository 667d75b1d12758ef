import { Injectable } from '@nestjs/common';
import type { ReadinessCheck } from './readiness-check';

/** Checks that components add at startup (projection lag), reported by `/health/ready` beside the adapters'. */
@Injectable()
export class ReadinessRegistry {
  private readonly checks: ReadinessCheck[] = [];

  add(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  list(): readonly ReadinessCheck[] {
    return this.checks;
  }
}
