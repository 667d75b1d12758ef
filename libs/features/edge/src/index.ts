export { EdgeModule } from './edge.module';
export { installEdgeRoute } from './install-edge-route';
export { ServePage } from './serve-page/serve-page';
export { pageUrlOf } from './serve-page/page-url';
export { acceptsGzip } from './serve-page/accepts-gzip';
export type { BotPageRequest } from './serve-page/page-request';
export type { EdgeAnswer, EdgeErrorCode } from './serve-page/edge-answer';
export { BotRequestRecorder } from './record-bot-request/bot-request-recorder';
export { botNameOf, KNOWN_BOTS, OTHER_BOT } from './bot-name/bot-name';
