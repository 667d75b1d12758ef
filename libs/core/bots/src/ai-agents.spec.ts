import aiRobots from './lists/ai-robots.json';
import { aiAgents } from './ai-agents';
import { classifyBot } from './classify-bot';

describe('aiAgents', () => {
  const agents = aiAgents();

  it('lists every agent of ai.robots.txt once, whatever the case the list spells it in', () => {
    const names = agents.map((agent) => agent.name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(Object.keys(aiRobots).map((name) => name.toLowerCase()))).toEqual(new Set(names));
  });

  it("names them as the edge records them, with the catalog's category and operator", () => {
    expect(agents.find((agent) => agent.name === 'GPTBot')).toEqual({ name: 'GPTBot', category: 'ai_training', operator: 'OpenAI', robotsTxtToken: 'GPTBot', fetchedAs: null });
    for (const agent of agents.filter((a) => ['ChatGPT-User', 'ClaudeBot', 'PerplexityBot', 'CCBot'].includes(a.name))) {
      const recorded = classifyBot(`Mozilla/5.0 (compatible; ${agent.name}/1.0)`);
      expect({ name: agent.name, category: agent.category, operator: agent.operator }).toEqual(recorded);
    }
  });

  it('says which crawler fetches for a robots.txt-only token', () => {
    expect(agents.find((agent) => agent.name === 'Google-Extended')).toMatchObject({ robotsTxtToken: 'Google-Extended', fetchedAs: 'Googlebot' });
    expect(agents.find((agent) => agent.name === 'Applebot-Extended')?.fetchedAs).toBe('Applebot');
  });
});
