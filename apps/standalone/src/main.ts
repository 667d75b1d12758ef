import { runMain } from '@bpc/platform';
import { standaloneApps } from './standalone';

void runMain('standalone', standaloneApps);
