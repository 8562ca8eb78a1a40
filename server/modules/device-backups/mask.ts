/**
 * Masks the secrets in a RouterOS configuration export for display: the value of every sensitive property
 * (passwords, shared secrets, pre-shared keys, private keys, SNMP communities...) becomes CONFIG_MASK.
 *
 * An export is a list of menu headers ("/ppp secret") and commands ("add name=alice password=x"), each
 * `key=value` with the value bare or "quoted" (with \" escapes). Long commands wrap onto the next line with a
 * trailing backslash and an indent, even inside a value, so a command is masked as one logical line and then
 * split back: the line count (and so every line number) stays the same.
 */
import { CONFIG_MASK } from '../../../contract/schemas/device-backup';

/** Property names whose value is a secret, whatever menu they appear in. */
const SENSITIVE_KEY =
  /(?:^|-)(?:password|passwd|secret|passphrase|psk|pre-shared-key|preshared-key|private-key|auth-key|md5-key|community|static-key-\d|management-protection-key|encryption-key|authentication-key|key-passphrase|api-key|token)$/;

/** In these menus the `name` is itself the secret (an SNMP community is its name). */
const SECRET_NAME_MENUS = new Set(['/snmp community']);

function isSensitive(key: string, menu: string): boolean {
  if (SENSITIVE_KEY.test(key)) return true;
  return key === 'name' && SECRET_NAME_MENUS.has(menu);
}

/** Consumes a continuation ("\\\n" and the next line's indent) at i; returns the index after it, or i. */
function skipContinuation(text: string, i: number): number {
  if (text[i] !== '\\' || text[i + 1] !== '\n') return i;
  let j = i + 2;
  while (text[j] === ' ' || text[j] === '\t') j++;
  return j;
}

/**
 * Masks one logical command (physical lines joined with "\n", continuation backslashes kept). Returns the
 * masked text, with exactly as many "\n" as the input, and how many values were masked.
 */
function maskCommand(command: string, menu: string): { text: string; count: number } {
  let out = '';
  let count = 0;
  let i = 0;
  const n = command.length;
  while (i < n) {
    // Find the next key=value: a key starts after whitespace (or the line start) and runs to '='.
    const match = /(^|[\s[])([A-Za-z][A-Za-z0-9-]*)=/g;
    match.lastIndex = i;
    const m = match.exec(command);
    if (!m) {
      out += command.slice(i);
      break;
    }
    const valueStart = m.index + m[0].length;
    out += command.slice(i, valueStart);
    const key = m[2];
    // Read the value's extent, keeping any line breaks it spans.
    let j = valueStart;
    const breaks: string[] = [];
    if (command[j] === '"') {
      j++;
      while (j < n) {
        const after = skipContinuation(command, j);
        if (after !== j) {
          breaks.push(command.slice(j, after));
          j = after;
          continue;
        }
        if (command[j] === '\\') {
          j += 2;
          continue;
        }
        if (command[j] === '"') {
          j++;
          break;
        }
        j++;
      }
    } else {
      while (j < n && !/\s/.test(command[j])) {
        const after = skipContinuation(command, j);
        if (after !== j) {
          // A continuation right after "key=" or mid-value: the value goes on on the next line.
          breaks.push(command.slice(j, after));
          j = after;
          continue;
        }
        j++;
      }
    }
    const value = command.slice(valueStart, j);
    const empty = value === '' || value === '""';
    if (isSensitive(key, menu) && !empty) {
      out += CONFIG_MASK + breaks.join('');
      count++;
    } else {
      out += value;
    }
    i = j;
  }
  return { text: out, count };
}

export interface MaskedConfig {
  text: string;
  /** How many secret values were replaced. */
  count: number;
}

export function maskRouterOsExport(exportText: string): MaskedConfig {
  const lines = exportText.split('\n');
  const out: string[] = [];
  let menu = '';
  let count = 0;
  let i = 0;
  while (i < lines.length) {
    // Gather one logical line: physical lines while each ends with a continuation backslash.
    let end = i;
    while (end < lines.length - 1 && /(^|[^\\])(\\\\)*\\$/.test(lines[end].replace(/\r$/, ''))) end++;
    const physical = lines.slice(i, end + 1);
    const first = physical[0].trimStart();
    if (first.startsWith('#')) {
      out.push(...physical);
    } else {
      if (first.startsWith('/')) {
        // "/ip firewall filter" alone sets the menu; "/ip address add ..." on one line also names it.
        const header = /^\/([^=]*?)(?:\s+(?:add|set|remove|print|export|edit)\b.*)?$/s.exec(
          first.replace(/\\\n\s*/g, ' '),
        );
        menu = header ? `/${header[1].trim()}` : menu;
      }
      const masked = maskCommand(physical.join('\n'), menu);
      count += masked.count;
      out.push(...masked.text.split('\n'));
    }
    i = end + 1;
  }
  return { text: out.join('\n'), count };
}
