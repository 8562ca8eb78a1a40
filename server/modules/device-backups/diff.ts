/**
 * Line diff between two configuration versions: Myers' O((N+M)·D) shortest edit script on the lines left after
 * the common head and tail are cut off (configuration changes are usually a few lines in thousands), grouped
 * into unified-diff hunks with `context` unchanged lines around each change.
 */
import type { DiffHunk, DiffLine } from '../../../contract/schemas/device-backup';

type Op = { type: 'context' | 'added' | 'removed'; oldIndex: number | null; newIndex: number | null };

/** Beyond this many differing lines the exact script is not worth its cost: everything in between is replaced. */
const MAX_EDIT_DISTANCE = 3000;

function myers(a: string[], b: string[], offsetA: number, offsetB: number): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const v = new Int32Array(2 * max + 2);
  // trace[d] keeps V's diagonals -d..d as they were before step d (memory grows with D², not D·(N+M)).
  const trace: Int32Array[] = [];
  const off = max + 1;
  let found = -1;
  for (let d = 0; d <= Math.min(max, MAX_EDIT_DISTANCE); d++) {
    trace.push(v.slice(off - d, off + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    if (found !== -1) break;
  }
  if (found === -1) {
    // Too different: all old lines removed, all new lines added.
    return [
      ...a.map((_, i) => ({ type: 'removed' as const, oldIndex: offsetA + i, newIndex: null })),
      ...b.map((_, j) => ({ type: 'added' as const, oldIndex: null, newIndex: offsetB + j })),
    ];
  }
  // Walk back through the saved V arrays to recover the path.
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const saved = trace[d];
    const vd = (diagonal: number) => saved[diagonal + d];
    const k = x - y;
    const prevK = k === -d || (k !== d && vd(k - 1) < vd(k + 1)) ? k + 1 : k - 1;
    const prevX = vd(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ type: 'context', oldIndex: offsetA + x, newIndex: offsetB + y });
    }
    if (x === prevX) {
      y--;
      ops.push({ type: 'added', oldIndex: null, newIndex: offsetB + y });
    } else {
      x--;
      ops.push({ type: 'removed', oldIndex: offsetA + x, newIndex: null });
    }
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    ops.push({ type: 'context', oldIndex: offsetA + x, newIndex: offsetB + y });
  }
  return ops.reverse();
}

/** Splits text into lines; a final newline does not make an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Every line of both texts in order, each marked context, removed or added. */
export function diffLines(oldText: string, newText: string): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: Op[] = [];
  for (let i = 0; i < head; i++) ops.push({ type: 'context', oldIndex: i, newIndex: i });
  ops.push(...myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail), head, head));
  for (let i = tail; i > 0; i--) ops.push({ type: 'context', oldIndex: a.length - i, newIndex: b.length - i });
  return ops.map((op) => ({
    type: op.type,
    text: op.oldIndex !== null ? a[op.oldIndex] : b[op.newIndex!],
    old_line: op.oldIndex === null ? null : op.oldIndex + 1,
    new_line: op.newIndex === null ? null : op.newIndex + 1,
  }));
}

/** Groups a full line diff into hunks with `context` unchanged lines around each run of changes. */
export function toHunks(lines: DiffLine[], context: number): DiffHunk[] {
  const changed = lines.map((l, i) => (l.type === 'context' ? -1 : i)).filter((i) => i !== -1);
  if (!changed.length) return [];
  const ranges: Array<[number, number]> = [];
  for (const i of changed) {
    const start = Math.max(0, i - context);
    const end = Math.min(lines.length - 1, i + context);
    const last = ranges[ranges.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
  }
  return ranges.map(([start, end]) => {
    const slice = lines.slice(start, end + 1);
    // Where the hunk starts in each file: the first line it has there, or (none) the line before it.
    const firstOld = slice.find((l) => l.old_line !== null)?.old_line;
    const firstNew = slice.find((l) => l.new_line !== null)?.new_line;
    const before = lines.slice(0, start);
    const oldBefore = before.filter((l) => l.old_line !== null).length;
    const newBefore = before.filter((l) => l.new_line !== null).length;
    return {
      old_start: firstOld ?? oldBefore,
      old_lines: slice.filter((l) => l.old_line !== null).length,
      new_start: firstNew ?? newBefore,
      new_lines: slice.filter((l) => l.new_line !== null).length,
      lines: slice,
    };
  });
}
