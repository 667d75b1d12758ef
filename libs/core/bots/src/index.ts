export * from './bot-category';
export { aiCategoryOfFunction, operatorNameOf } from './ai-robots-rules';
export { categoryOfCrawlerTags, operatorOfCrawlerUrl } from './crawler-user-agents-rules';
export { compileBotCatalog, type BotCatalog, type BotSources } from './bot-catalog';
export { botCatalog, classifyBot, createBotClassifier, CLASSIFIED_USER_AGENT_LENGTH, type BotClassifier, type BotClassifierOptions } from './classify-bot';
export { OWN_BOTS, type OwnBot } from './own-bots';
export { ROBOTS_TXT_ONLY_TOKENS } from './robots-txt-tokens';
export { aiAgents, type AiAgent } from './ai-agents';
