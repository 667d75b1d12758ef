export * from './robots-file';
export * from './fetch-robots-txt';
