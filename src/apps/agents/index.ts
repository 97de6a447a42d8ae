export { Agents, createAgents, AVOID, DIRECTIONS } from './agents';
export type { AgentOptions } from './agents';
