import { runMain } from '@bpc/composition';
import { standaloneApps } from './standalone';

void runMain('standalone', standaloneApps);
