import { runMain } from '@bpc/platform';
import { publicApiApp } from './public-api.app';

void runMain('public-api', [publicApiApp]);
