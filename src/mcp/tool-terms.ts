// The searcher's advice in the MCP tools' terms: its messages name the CLI's flags (`--mode semantic`),
// which an agent cannot pass; the tools take the argument (`"mode": "semantic"`). Before audit44 a
// refused query of symbols told the agent to use `--mode semantic`.
const MODE_FLAG = /--mode(?: |=)(hybrid|semantic|lexical|line)\b/g;

/**
 * The quoted query (from the message's first double quote to its last, as warning-note.ts cutQuoted finds
 * it) is the agent's own text, left as it is: a query holding `--mode line` was rewritten inside its quotes
 * (audit44's left).
 */
export function toolTerms(message: string): string {
  const open = message.indexOf('"');
  const close = message.lastIndexOf('"');
  if (open < 0 || close <= open) return message.replace(MODE_FLAG, '"mode": "$1"');
  return message.slice(0, open).replace(MODE_FLAG, '"mode": "$1"') + message.slice(open, close + 1) + message.slice(close + 1).replace(MODE_FLAG, '"mode": "$1"');
}
