import { processEnvironment } from '@bpc/config';
import { runCli } from './run-cli';

// Operator CLI: prints for humans on stdout, errors on stderr.
void runCli(process.argv.slice(2), {
  env: processEnvironment(),
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(error?.constructor?.name === 'CliUsageError' ? 2 : 1);
  },
);
