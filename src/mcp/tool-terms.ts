// The searcher's advice in the MCP tools' terms: its messages name the CLI's flags (`--mode semantic`),
// which an agent cannot pass; the tools take the argument (`"mode": "semantic"`). Before audit44 a
// refused query of symbols told the agent to use `--mode semantic`.
const MODE_FLAG = /--mode(?: |=)(hybrid|semantic|lexical|line)\b/g;

export function toolTerms(message: string): string {
  return message.replace(MODE_FLAG, '"mode": "$1"');
}
