export * from './robots-file';
