import { runMain } from '@bpc/platform';
import { daemonApp } from './daemon.app';

void runMain('daemon', [daemonApp]);
