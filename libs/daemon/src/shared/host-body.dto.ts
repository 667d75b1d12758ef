import { IsDefined, IsInt } from 'class-validator';

/** Body of the per-host endpoints that take only `host_id`. */
export class HostBodyDto {
  @IsDefined({ message: 'host_id is required' }) @IsInt({ message: 'host_id must be an integer' }) host_id!: number;
}
