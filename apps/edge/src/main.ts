import { runMain } from '@bpc/composition';
import { edgeApp } from './edge.app';

void runMain('edge', [edgeApp]);
