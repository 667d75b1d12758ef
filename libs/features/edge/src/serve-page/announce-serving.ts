import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SERVING_LOAD, ServingLoad } from '@bpc/platform';

/** Tells the process's `ServingLoad` that bots are served here while the edge runs: in standalone mode the explorer projection gives way while serving is saturated. */
@Injectable()
export class AnnounceServing implements OnApplicationBootstrap, OnApplicationShutdown {
  private stop?: () => void;

  constructor(@Inject(SERVING_LOAD) private readonly load: ServingLoad) {}

  onApplicationBootstrap(): void {
    this.stop = this.load.serving();
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }
}
