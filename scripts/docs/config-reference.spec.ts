import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderConfigReference } from './config-reference';
import { CONFIG_REFERENCE_FILE, configReference } from './write-config-reference';

const SCHEMA = `
export const MODES = ['a', 'b'] as const;

/** A nested part. */
export class PartConfig {
  /** How many, at most. */
  @IsInt() @Min(1) @Max(10_000) size: number = 1_000;
  @IsOptional() @Matches(/^x+$/, { message: 'must be only x' }) name?: string;
}

export class AppConfigSchema {
  /** Where data goes. */
  @IsString() @IsNotEmpty() data_dir: string = './data';
  @IsIn(MODES) mode: (typeof MODES)[number] = 'a';
  @ValidateNested() @Type(() => PartConfig) part: PartConfig = new PartConfig();
  @IsArray() @ArrayMinSize(1) @ValidateNested({ each: true }) @Type(() => PartConfig) parts!: PartConfig[];
}
`;

describe('configuration reference (docs/configuration.md)', () => {
  it('documents each key with its type and bounds, default and doc comment, nested objects in sections of their own', () => {
    const text = renderConfigReference(SCHEMA, 'schema.ts');

    expect(text).toContain('| `data_dir` | non-empty string | `./data` | Where data goes. |');
    expect(text).toContain('| `mode` | one of `a`, `b` | `a` |  |');
    expect(text).toContain('| [`part`](#part) | object | — | A nested part. |');
    expect(text).toContain('| [`parts`](#parts) | list of objects | **required** | A nested part. |');
    expect(text).toContain('## `part`\n\nA nested part.');
    expect(text).toContain('## `parts[]`');
    expect(text).toContain('| `size` | integer 1 to 10000 | `1000` | How many, at most. |');
    expect(text).toContain('| `name` | only x, optional | — |  |');
  });

  it('is committed as the schema makes it (run `npm run docs:config` after changing the schema)', () => {
    const committed = readFileSync(path.resolve(__dirname, '../..', CONFIG_REFERENCE_FILE), 'utf8');

    expect(committed).toBe(configReference());
  });
});
