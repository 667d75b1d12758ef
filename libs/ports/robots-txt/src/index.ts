export * from './robots-file';
export * from './fetch-robots-txt';
export * from './robots-txt-keeper';
