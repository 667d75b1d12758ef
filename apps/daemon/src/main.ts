import { runMain } from '@bpc/composition';
import { daemonApp } from './daemon.app';

void runMain('daemon', [daemonApp]);
