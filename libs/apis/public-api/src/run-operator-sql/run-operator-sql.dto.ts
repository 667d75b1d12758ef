import { IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export const OPERATOR_SQL_FORMATS = ['json', 'csv'] as const;
export type OperatorSqlFormat = (typeof OPERATOR_SQL_FORMATS)[number];

/** Body of POST /internal/admin/sql. */
export class RunOperatorSqlDto {
  /** One statement; anything but reading is refused, by the console or the engine (docs/analysts.md). */
  @IsDefined({ message: 'sql is required' }) @IsString() @MinLength(1) @MaxLength(100_000) sql!: string;
  /** `json` (default): `{rows, rowCount}`; `csv`: the engine's CSV with a header line. */
  @IsOptional() @IsIn(OPERATOR_SQL_FORMATS, { message: `format must be one of ${OPERATOR_SQL_FORMATS.join(', ')}` }) format?: OperatorSqlFormat;
}
