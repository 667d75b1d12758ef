import { runMain } from '@bpc/platform';
import { edgeApp } from './edge.app';

void runMain('edge', [edgeApp]);
