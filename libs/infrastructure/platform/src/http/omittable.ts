import { ValidateIf } from 'class-validator';

/**
 * The field may be left out, but `null` is a value like any other and is
 * validated (class-validator's `IsOptional` would let `null` through as "omitted").
 */
export function Omittable(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}
