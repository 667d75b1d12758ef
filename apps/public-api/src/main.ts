import { runMain } from '@bpc/composition';
import { publicApiApp } from './public-api.app';

void runMain('public-api', [publicApiApp]);
