// Names and messages printed for a person, with their control characters shown as escapes: a file name a
// hostile store lists (ESC sequences, a newline) must not drive the terminal or forge a result line.
// Written as Python's repr writes them ("\n", "\x1b", "\x85"); JSON and `-0` output keep the name as it is.

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const CONTROL_BUT_TAB = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escape(c: string): string {
  return NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/** A file name as a person's terminal shows it: every control character escaped. */
export function visibleName(name: string): string {
  return name.replace(CONTROL, escape);
}

/** A one-line message (a warning, a notice) whose names came from outside: control characters but tab escaped. */
export function visibleLine(message: string): string {
  return message.replace(CONTROL_BUT_TAB, escape);
}
