import { IsDefined, IsInt } from 'class-validator';
import { AppError } from '@bpc/domain';
import { MAX_BODY_DEPTH, validateBody } from './validate-body';

class Body {
  @IsDefined() @IsInt() n!: number;
}

/** `depth` levels of arrays and objects around a number, as text and parsed: `{"x":[{"x":[…]}]}`. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 1; level < depth; level++) value = level % 2 ? [value] : { x: value };
  return { n: 1, x: value };
}

describe('validateBody', () => {
  it.each([true, false])('refuses a body nested 5,000 levels deep with a 400 naming the body, not a stack overflow (forbidUnknownKeys %p)', (forbidUnknownKeys) => {
    const run = () => validateBody(Body, nested(5_000), { forbidUnknownKeys });
    expect(run).toThrow(AppError);
    expect(run).toThrow(`request body nests deeper than ${MAX_BODY_DEPTH} levels`);
  });

  it('takes a body nested up to the limit', () => {
    expect(validateBody(Body, nested(MAX_BODY_DEPTH), { forbidUnknownKeys: false })).toMatchObject({ n: 1 });
    expect(() => validateBody(Body, nested(MAX_BODY_DEPTH + 1), { forbidUnknownKeys: false })).toThrow(/nests deeper/);
  });
});
