import { PipeTransform } from '@nestjs/common';
import { validateBody, ValidateBodyOptions } from './validate-body';

/** `@Body(new BodyPipe(Dto, options))`: validation as `validateBody`. */
export class BodyPipe<T extends object> implements PipeTransform<unknown, T> {
  constructor(
    private readonly dto: new () => T,
    private readonly options: ValidateBodyOptions,
  ) {}

  transform(body: unknown): T {
    return validateBody(this.dto, body, this.options);
  }
}
