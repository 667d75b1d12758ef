import { Controller, Get, Inject, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiQuery, ApiTags } from '@nestjs/swagger';
import { EXPLORER_STORE, ExplorerStore } from '@bpc/explorer-store';
import { AuthorizedRequest, RequiresWebsite } from '../auth/bearer-auth.guard';
import { ApiPublicEndpoint, ApiPublicError } from '../http/public-api-docs';
import { ALERT_TYPES_SHOWN, alertDeliveriesQuery, AlertDeliveriesView, DELIVERIES_PER_PAGE, DELIVERY_STATUSES, listAlertDeliveries } from './list-alert-deliveries';

class AlertDeliveryDto {
  @ApiProperty({ example: 'export_finished:demo:42', description: 'Stable alert id: the body\'s `id` and the `X-BPC-Alert-Id` header' }) alertId!: string;
  @ApiProperty({ enum: ALERT_TYPES_SHOWN }) type!: string;
  @ApiProperty({ type: 'integer', example: 1, description: '1-based try (5 at most)' }) attempt!: number;
  @ApiProperty({ enum: DELIVERY_STATUSES, description: '`retrying`: this try failed and another is due; `failed`: no more tries' }) status!: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 200, description: "The receiver's HTTP status; null when it did not answer (refused, timed out)" }) httpStatus!: number | null;
  @ApiProperty({ example: '', description: 'Why the try failed; empty when delivered' }) error!: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the try ended' }) at!: string;
}

class AlertDeliveriesMetaDto {
  @ApiProperty({ type: 'integer' }) page!: number;
  @ApiProperty({ type: 'integer' }) perPage!: number;
  @ApiProperty({ type: 'integer', description: 'Tries in the log (with the status filter)' }) total!: number;
  @ApiProperty({ type: 'integer' }) totalPages!: number;
}

class AlertDeliveriesDto {
  @ApiProperty({ type: [AlertDeliveryDto] }) data!: AlertDeliveryDto[];
  @ApiProperty({ type: AlertDeliveriesMetaDto }) meta!: AlertDeliveriesMetaDto;
}

/** The website's alert webhook delivery log (docs/alerts.md): any role, no platform module needed. */
@Controller('api/websites/:website/alerts')
@ApiTags('alerts')
@ApiPublicEndpoint()
@ApiParam({ name: 'website', type: String, description: 'Website identifier' })
@RequiresWebsite({ role: 'readonly', platformModule: false })
export class AlertDeliveriesController {
  constructor(@Inject(EXPLORER_STORE) private readonly store: ExplorerStore) {}

  @Get('deliveries')
  @ApiOperation({
    summary: "The website's alert webhook deliveries, newest try first (any role)",
    description: 'One row per try to POST an alert (render failures, a page turning to errors, an export finished) to the website\'s webhook: delivered, retrying or failed, with the receiver\'s status. A page past the last is empty.',
  })
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 } })
  @ApiQuery({ name: 'perPage', required: false, schema: { type: 'integer', minimum: 1, maximum: DELIVERIES_PER_PAGE.max, default: DELIVERIES_PER_PAGE.default } })
  @ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: [...DELIVERY_STATUSES] } })
  @ApiOkResponse({ type: AlertDeliveriesDto, description: '`{data: [{alertId, type, attempt, status, httpStatus, error, at}], meta: {page, perPage, total, totalPages}}`' })
  @ApiPublicError(400, 'VALIDATION_FAILED: a query parameter out of range or unknown; `field` names it')
  deliveries(@Req() request: AuthorizedRequest, @Query() query: Record<string, unknown>): Promise<AlertDeliveriesView> {
    return listAlertDeliveries(this.store, request.access!.website.id, alertDeliveriesQuery(query));
  }
}
