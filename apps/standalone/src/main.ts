import { runMain } from '@bpc/composition';
import { serveDemoSite, standaloneApps } from './standalone';

void runMain('standalone', standaloneApps, [serveDemoSite]);
