import type { AppSpec } from '@bpc/composition';
import { daemonApp } from '../../daemon/src/daemon.app';
import { edgeApp } from '../../edge/src/edge.app';
import { projectorApp } from '../../projector/src/projector.app';
import { publicApiApp } from '../../public-api/src/public-api.app';

/** Every app in one process, sharing one set of adapters. */
export const standaloneApps: readonly AppSpec[] = [projectorApp, daemonApp, publicApiApp, edgeApp];
