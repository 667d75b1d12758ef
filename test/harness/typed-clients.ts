import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');

/** Calls through clients typed from the OpenAPI documents: `test/typed-clients`, compiled on their own (see its tsconfig). */
const CLIENTS_DIR = path.join(ROOT, 'test', 'typed-clients');

/** Where the generated types and the compiled calls go (git-ignored). */
const GENERATED_DIR = path.join(ROOT, '.tmp', 'typed-clients');

/**
 * Generates the `paths` types of an OpenAPI document with the
 * openapi-typescript CLI and its default options, as a customer would, into
 * `generated/<name>` of the typed clients.
 */
export async function generateClientTypes(document: string, name: string): Promise<void> {
  const cli = path.join(path.dirname(require.resolve('openapi-typescript/package.json')), 'bin', 'cli.js');
  // openapi-typescript reads the document through Redocly's library: no telemetry from a test run.
  await promisify(execFile)(process.execPath, [cli, path.resolve(ROOT, document), '-o', path.join(GENERATED_DIR, `${name}.d.ts`)], {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
  });
}

/** Compiles the typed clients (strict) against the generated types; the compiler's complaints, none when it compiled. */
export function compileTypedClients(): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(CLIENTS_DIR, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  })!;
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const emitted = program.emit();
  return [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file || diagnostic.start === undefined) return message;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${path.relative(ROOT, diagnostic.file.fileName)}:${line + 1}:${character + 1} ${message}`;
  });
}

/** A compiled module of the typed clients (`compileTypedClients` first). */
export function loadTypedClient<T>(name: string): T {
  return require(path.join(GENERATED_DIR, 'out', `${name}.js`)) as T;
}
