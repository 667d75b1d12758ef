import { AGENT_CLIENT_HEADER, AGENT_CLIENT_LABEL, IN_PROCESS_AGENT_HEADER, inProcessAgentMark, isAgentConnectorRequest } from './agent-connector-mark';

describe('the agent connector mark', () => {
  it("is the process's own secret, or the stdio connector's self-declared label", () => {
    expect(isAgentConnectorRequest(inProcessAgentMark())).toBe(true);
    expect(isAgentConnectorRequest({ [AGENT_CLIENT_HEADER]: AGENT_CLIENT_LABEL })).toBe(true);
  });

  it('is absent from other requests, a guessed secret or another label', () => {
    expect(isAgentConnectorRequest({})).toBe(false);
    expect(isAgentConnectorRequest({ [IN_PROCESS_AGENT_HEADER]: 'guess' })).toBe(false);
    expect(isAgentConnectorRequest({ [IN_PROCESS_AGENT_HEADER]: inProcessAgentMark()[IN_PROCESS_AGENT_HEADER].replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) })).toBe(false);
    expect(isAgentConnectorRequest({ [AGENT_CLIENT_HEADER]: 'dashboard' })).toBe(false);
  });
});
