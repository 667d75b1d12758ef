import { HostTargetsDto } from '../shared/host-targets.dto';

/** Body of POST /internal/cache/invalidate: `host_id`, `urls`, optional `dimension_ids`. */
export class InvalidateCacheDto extends HostTargetsDto {}
