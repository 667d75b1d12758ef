import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsInt } from 'class-validator';

/** Body of the per-host endpoints that take only `host_id`. */
export class HostBodyDto {
  @ApiProperty({ type: 'integer', description: 'Configured host id', example: 1 })
  @IsDefined({ message: 'host_id is required' }) @IsInt({ message: 'host_id must be an integer' }) host_id!: number;
}
