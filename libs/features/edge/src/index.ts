export { EdgeModule } from './edge.module';
export { installEdgeRoute } from './install-edge-route';
export { ServePage, pageUrlOf, acceptsGzip } from './serve-page/serve-page';
export type { BotPageRequest, EdgeAnswer, EdgeErrorCode } from './serve-page/serve-page';
export { BotRequestRecorder } from './record-bot-request/bot-request-recorder';
export { botNameOf, KNOWN_BOTS, OTHER_BOT } from './bot-name/bot-name';
