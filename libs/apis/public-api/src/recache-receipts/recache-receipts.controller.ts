import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiPropertyOptional, ApiQuery, ApiTags } from '@nestjs/swagger';
import { validationError } from '@bpc/domain';
import { AuthorizedRequest, RequiresWebsite } from '../auth/bearer-auth.guard';
import { ApiPublicEndpoint, ApiPublicError } from '../http/public-api-docs';
import { pagingParams } from '../http/paging-params';
import { GetRecacheReceipt, RecacheReceiptView } from './get-recache-receipt.query';
import { RECEIPT_STATES, type ReceiptState } from './receipt-sql';
import { isReceiptState } from './receipt-view';

export const RECEIPT_PAGE = { perPageDefault: 100, perPageMax: 500 } as const;

class ReceiptTotalsDto {
  @ApiProperty({ type: 'integer', description: 'Entries of the receipt (URLs × dimensions)' }) entries!: number;
  @ApiProperty({ type: 'integer' }) queued!: number;
  @ApiProperty({ type: 'integer' }) rendering!: number;
  @ApiProperty({ type: 'integer' }) stored!: number;
  @ApiProperty({ type: 'integer' }) kept!: number;
  @ApiProperty({ type: 'integer' }) failed!: number;
}

class ReceiptEntryDto {
  @ApiProperty({ example: 'https://www.example.com/pricing' }) url!: string;
  @ApiProperty({ type: 'integer', example: 1 }) dimensionId!: number;
  @ApiProperty({ example: 'desktop', description: "The dimension's configured name" }) dimension!: string;
  @ApiProperty({ enum: RECEIPT_STATES, description: 'queued → rendering → stored | kept (the old entry stayed; `reason` says why) | failed (`reason` says why)' }) state!: ReceiptState;
  @ApiPropertyOptional({ example: 'kept_smaller', description: 'The render outcome that ended the entry (render history outcome), `purged` when a purge removed it from the queue, or `retry_scheduled` while it waits for another attempt' }) outcome?: string;
  @ApiPropertyOptional({ example: 'render is 12% of the last good render (min_size_ratio 0.3)' }) reason?: string;
  @ApiPropertyOptional({ type: 'integer', example: 1 }) attempt?: number;
  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'When that outcome was recorded' }) updatedAt?: string;
}

class ReceiptMetaDto {
  @ApiProperty({ type: 'integer' }) page!: number;
  @ApiProperty({ type: 'integer' }) perPage!: number;
  @ApiProperty({ type: 'integer', description: 'Entries matching `state` (all entries without it)' }) total!: number;
  @ApiProperty({ type: 'integer' }) totalPages!: number;
}

class RecacheReceiptDto {
  @ApiProperty() receiptId!: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the (first) request of the receipt was recorded' }) createdAt!: string;
  @ApiProperty({ enum: ['api', 'sitemap', 'daemon'], description: 'What made the recache: the public API, a sitemap recache, the daemon API' }) source!: string;
  @ApiProperty({ description: 'True when no entry is queued or rendering any more' }) done!: boolean;
  @ApiProperty({ type: ReceiptTotalsDto }) totals!: ReceiptTotalsDto;
  @ApiProperty({ type: [ReceiptEntryDto], description: 'One page of entries, in URL then dimension order' }) data!: ReceiptEntryDto[];
  @ApiProperty({ type: ReceiptMetaDto }) meta!: ReceiptMetaDto;
}

/** `page`, `perPage`, `state` of the query string, checked as the explorers check theirs (400 naming the parameter). */
export function receiptPaging(query: Record<string, unknown>): { page: number; perPage: number; state: ReceiptState | undefined } {
  const unknown = Object.keys(query).find((key) => !['page', 'perPage', 'state'].includes(key));
  if (unknown !== undefined) throw validationError(unknown, `unknown query parameter ${unknown}`);
  const state = query.state;
  if (state !== undefined && (typeof state !== 'string' || !isReceiptState(state))) throw validationError('state', `state must be one of ${RECEIPT_STATES.join(', ')}`);
  return { ...pagingParams(query, { default: RECEIPT_PAGE.perPageDefault, max: RECEIPT_PAGE.perPageMax }), state };
}

/** Recache receipts of the website's host, for every role: reading them changes nothing (as the queue status). */
@Controller('api/websites/:website/cache/receipts')
@ApiTags('cache')
@ApiPublicEndpoint()
@ApiParam({ name: 'website', type: String, description: 'Website identifier' })
@RequiresWebsite({ role: 'readonly', platformModule: false })
export class RecacheReceiptsController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':receiptId')
  @ApiOperation({
    summary: 'How a recache went, per URL and dimension: queued → rendering → stored | kept | failed (any role)',
    description:
      'The receipt of a recache (its `receiptId`), paged. An entry is `queued` until the scheduler claims it (`rendering`), and ends with the first render that began after the request: `stored`, `kept` (the old entry stayed: blank, timed out, soft 404, much smaller, render-wins) or `failed` (gave up, or removed by a purge: outcome `purged`), with the render outcome and its reason. `done` is true once no entry is queued or rendering. Receipts are kept 30 days.',
  })
  @ApiParam({ name: 'receiptId', type: String, description: 'The `receiptId` of a recache answer' })
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 } })
  @ApiQuery({ name: 'perPage', required: false, schema: { type: 'integer', minimum: 1, maximum: RECEIPT_PAGE.perPageMax, default: RECEIPT_PAGE.perPageDefault } })
  @ApiQuery({ name: 'state', required: false, enum: RECEIPT_STATES, description: 'Only entries in this state' })
  @ApiOkResponse({ type: RecacheReceiptDto })
  @ApiPublicError(400, 'VALIDATION_FAILED: a bad `page`, `perPage` or `state`, or a page past the last; `field` names it')
  @ApiPublicError(404, "RECEIPT_NOT_FOUND: no receipt of this id on the website's host")
  read(@Req() request: AuthorizedRequest, @Param('receiptId') receiptId: string, @Query() query: Record<string, unknown>): Promise<RecacheReceiptView> {
    const { page, perPage, state } = receiptPaging(query);
    return this.queries.execute(new GetRecacheReceipt(request.access!.website.id, receiptId, page, perPage, state));
  }
}
